package tooling

import "testing"

func TestHelpRequest(t *testing.T) {
	for code, want := range map[string]string{
		"?solve.Values": "solve.Values/0", "solve.Values?": "solve.Values/0", "help(solve.Values)": "solve.Values/0",
		"??t.At": "t.At/1", "t.At??": "t.At/1", " ? plots ": "plots/0", "help( x )": "x/0",
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
