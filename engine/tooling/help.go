package tooling

import (
	"regexp"
	"strings"
)

// IPython's habits for documentation work in a cell: ?name, name? and
// help(name) (?? for more detail) show what Shift-Tab shows for the name.
// The kernel shows it in the pager, as IPython does; grundy run writes it
// to the terminal. Such a cell is not run: Go has no such syntax, so it
// cannot mean anything else.
var helpForm = regexp.MustCompile(`^\s*(?:(\?\??)\s*([\pL_][\pL\pN_.]*)|([\pL_][\pL\pN_.]*)\s*(\?\??)|help\(\s*([\pL_][\pL\pN_.]*)\s*\))\s*$`)

// HelpRequest returns the name a cell asks about and the detail level for
// Inspect (0, or 1 for ??), or ok false for an ordinary cell.
func HelpRequest(code string) (name string, detail int, ok bool) {
	m := helpForm.FindStringSubmatch(code)
	if m == nil {
		return "", 0, false
	}
	name, marks := m[2]+m[3]+m[5], m[1]+m[4]
	if strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return "", 0, false
	}
	return name, len(marks) / 2, true
}

// NoHelp is what a help request prints when Inspect knows nothing of the
// name.
func NoHelp(name string) string {
	return "No documentation for " + name + ": check the name (Tab completes it).\n"
}
