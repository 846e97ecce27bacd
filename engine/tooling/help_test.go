package tooling

import (
	"strings"
	"testing"
)

func TestHelpRequest(t *testing.T) {
	for code, want := range map[string]string{
		"?solve.Values": "solve.Values/0", "solve.Values?": "solve.Values/0", "help(solve.Values)": "solve.Values/0",
		"??t.At": "t.At/1", "t.At??": "t.At/1", " ? plots ": "plots/0", "help( x )": "x/0",
		"help()": "/0", "%help": "/0", " help( ) ": "/0", "%help x": "",
		"x?y": "", "t.At(1)?": "", "help(f(x))": "", "?": "", "a?b?": "", "solve.?": "", "fmt.Println(\"?\")": "", "x := 1 // ?": "",
	} {
		name, detail, ok := HelpRequest(code)
		got := ""
		if ok {
			got = name + "/" + string(rune('0'+detail))
		}
		if got != want {
			t.Errorf("HelpRequest(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestMagic(t *testing.T) {
	for code, want := range map[string]string{
		"%%writefile x.go\npackage main":            "%%writefile: cells are Go; grundy has no IPython or GoNB magics; write a file in Go",
		"%time solve.Values(g, 9)":                  "%time: cells are Go; grundy has no IPython or GoNB magics; time code in Go",
		"\n  %reset -f":                             "%reset: cells are Go; grundy has no IPython or GoNB magics; for an empty session restart the kernel",
		"%goflags -race":                            "%goflags: cells are Go; grundy has no IPython or GoNB magics; write the cell in Go",
		"%%\nfmt.Println(1)":                        "%%: cells are Go; grundy has no IPython or GoNB magics; a cell's statements run as they are",
		"!pip install numpy":                        "!pip: cells are Go, and shell commands do not run in them",
		"!go get golang.org/x/exp":                  "!go: cells are Go, and shell commands do not run in them",
		"!cat data.txt":                             "!cat: cells are Go, and shell commands do not run in them",
		"!ls -l":                                    "", // Go too: (not ls) minus l
		"// tags: x\n\n%%time\nf()":                 "%%time: cells are Go",
		"!done":                                     "", // Go: not done
		"!slices.Contains(xs, 3) &&\n\tlen(xs) > 2": "",
		"!ok && x > 1":                              "",
		"x := 5 % 3":                                "",
		"fmt.Printf(\"%d\", 1)":                     "",
		"// %time\nx":                               "",
	} {
		msg, ok := Magic(code)
		if ok != (want != "") || !strings.HasPrefix(msg, want) {
			t.Errorf("Magic(%q) = %q, %v; want %q", code, msg, ok, want)
		}
	}
}
