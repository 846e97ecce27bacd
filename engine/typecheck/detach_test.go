package typecheck

import (
	"go/token"
	"strings"
	"testing"
)

// A method a failed cell added to an earlier cell's type goes when the
// next cell is checked; a committed cell's stays; declared again, it is
// added anew.
func TestFailedCellMethodsGo(t *testing.T) {
	s := newTestSession()
	fset := token.NewFileSet()
	check := func(src string, commit bool) *Info {
		in, _ := checkCell(t, s, fset, src)
		if commit {
			s.Commit(in)
		}
		return in
	}
	errs := func(in *Info) string {
		var out []string
		for _, e := range in.Errors {
			out = append(out, e.Error())
		}
		return strings.Join(out, "; ")
	}
	check(`type T struct{}; func (T) Kept() int { return 1 }`, true)
	check(`func (T) Early() int { return 1 + "x" }`, false)      // attached before the check
	check(`type U int; func (T) Late() U { return "x" }`, false) // after it
	in := check(`func cell() { T{}.Kept(); T{}.Early(); T{}.Late() }`, true)
	got := errs(in)
	if strings.Contains(got, "Kept") || !strings.Contains(got, "T{}.Early undefined") || !strings.Contains(got, "T{}.Late undefined") {
		t.Errorf("after two failed cells: %s; want Early and Late undefined, Kept defined", got)
	}
	check(`func (T) Early() string { return "x" }`, true)
	in = check(`func cell() { _ = T{}.Early() + "y" }`, true)
	if len(in.Errors) > 0 {
		t.Errorf("Early declared again with another signature: %s", errs(in))
	}
}
