package kernel

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// IPython's habits for documentation work in a cell: ?name, name? and
// help(name) (?? for more detail) show what Shift-Tab shows for the name,
// in the pager, as IPython does. The cell is not run: Go has no such
// syntax, so it cannot mean anything else.
var helpForm = regexp.MustCompile(`^\s*(?:(\?\??)\s*([\pL_][\pL\pN_.]*)|([\pL_][\pL\pN_.]*)\s*(\?\??)|help\(\s*([\pL_][\pL\pN_.]*)\s*\))\s*$`)

// helpRequest returns the name a cell asks about and the detail level
// (0, or 1 for ??), or ok false for an ordinary cell.
func helpRequest(code string) (name string, detail int, ok bool) {
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

// help answers a documentation request: the session's Inspect text as a
// "page" payload, or a line saying nothing was found.
func (k *Kernel) help(out *cellOutput, name string, detail int) []any {
	data, found := k.lookup(name, utf8.RuneCountInString(name), detail)
	if !found {
		out.Stdout("No documentation for " + name + ": check the name (Tab completes it).\n")
		return []any{}
	}
	return []any{map[string]any{"source": "page", "data": data, "start": 0}}
}
