package tooling

import (
	"go/parser"
	"regexp"
	"strings"
)

// IPython's habits for documentation work in a cell: ?name, name? and
// help(name) (?? for more detail) show what Shift-Tab shows for the name.
// The kernel shows it in the pager, as IPython does; grundy run writes it
// to the terminal. Such a cell is not run: Go has no such syntax, so it
// cannot mean anything else. help() and GoNB's %help, with no name, give
// the overview (NoHelp("")).
var helpForm = regexp.MustCompile(`^\s*(?:(\?\??)\s*([\pL_][\pL\pN_.]*)|([\pL_][\pL\pN_.]*)\s*(\?\??)|help\(\s*([\pL_][\pL\pN_.]*)\s*\)|(help\(\s*\)|%help))\s*$`)

// HelpRequest returns the name a cell asks about and the detail level for
// Inspect (0, or 1 for ??), or ok false for an ordinary cell. The name is
// "" for help() and %help, which ask for the overview.
func HelpRequest(code string) (name string, detail int, ok bool) {
	m := helpForm.FindStringSubmatch(code)
	if m == nil {
		return "", 0, false
	}
	if m[6] != "" {
		return "", 0, true
	}
	name, marks := m[2]+m[3]+m[5], m[1]+m[4]
	if strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return "", 0, false
	}
	return name, len(marks) / 2, true
}

// NoHelp is what a help request prints when Inspect knows nothing of the
// name; for no name (help()), where help is to be found.
func NoHelp(name string) string {
	if name == "" {
		return overview
	}
	return "No documentation for " + name + ": check the name (Tab completes it).\n"
}

const overview = `Cells are Go: declarations and statements, run in order; the last expression shows.
Documentation of a name: ?name, name? or help(name) (?? for more), or Shift-Tab; Tab completes.
The library, imported for you: games (rules), solve (tables), known (the seeds' formulas),
entail (entailing games), plots (figures), progress, display; help(solve) describes a package.
The whole reference: Help > grundy library reference in the Notebook.
`

// magicForm is the first line of a cell in IPython's or GoNB's own
// syntax: a line magic (%name), a cell magic (%%name), or a shell escape
// (!command).
var magicForm = regexp.MustCompile(`^\s*(%%?|!)\s*([\w.-]*)(.*)$`)

// Magic returns what to say of a cell written in IPython's or GoNB's
// syntax rather than Go, or ok false: its first line (after comments) is
// a magic (%time,
// %%writefile x.go, %reset), which no Go begins with, or a shell escape
// (!ls -l, !go get ...) that is not a Go expression (!done is one). The
// message says what to write in Go instead of Go's parse error, which
// would say only "expected statement, found '%'".
func Magic(code string) (msg string, ok bool) {
	var first string
	for l := range strings.Lines(code) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			first = l
			break
		}
	}
	m := magicForm.FindStringSubmatch(first)
	if m == nil {
		return "", false
	}
	sigil, name := m[1], m[2]
	if sigil == "!" {
		// Go when it is an expression: the first line, or the whole cell
		// (one spread over lines); a !x anywhere else would be unused.
		if _, err := parser.ParseExpr(first); err == nil {
			return "", false
		}
		if _, err := parser.ParseExpr(code); err == nil {
			return "", false
		}
		return "!" + name + ": cells are Go, and shell commands do not run in them (the interpreter leaves out os/exec); run it in a terminal, or use the os package (os.ReadDir, os.Getwd, os.Chdir, os.Getenv)", true
	}
	what := sigil + name + ": cells are Go; grundy has no IPython or GoNB magics"
	switch strings.ToLower(name) {
	case "time", "timeit":
		return what + "; time code in Go: start := time.Now() before it, time.Since(start) after", true
	case "writefile", "file":
		return what + `; write a file in Go: os.WriteFile("name", []byte(text), 0o644)`, true
	case "reset", "restart":
		return what + "; for an empty session restart the kernel (Kernel > Restart); a declaration run again replaces the old one", true
	case "env", "setenv":
		return what + `; use os.Setenv("NAME", "value") and os.Getenv("NAME")`, true
	case "cd", "ls", "pwd":
		return what + "; use os.Chdir, os.ReadDir and os.Getwd", true
	case "main", "":
		return what + "; a cell's statements run as they are, and a cell declaring func main runs it", true
	}
	return what + "; write the cell in Go (help() says where the documentation is)", true
}
