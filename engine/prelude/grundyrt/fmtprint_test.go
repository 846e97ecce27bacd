package grundyrt

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"
)

type testPoint struct {
	X, Y int
	name string
}

type testStringer struct{ n int }

func (s testStringer) String() string { return fmt.Sprintf("S%d", s.n) }

type testPtrStringer struct{ n int }

func (s *testPtrStringer) String() string { return fmt.Sprintf("P%d", s.n) }

type testFormatter struct{}

func (testFormatter) Format(f fmt.State, verb rune) {
	w, wok := f.Width()
	pr, pok := f.Precision()
	fmt.Fprintf(f, "F[%c %v %v %v %v %v%v%v%v%v]", verb, w, wok, pr, pok, f.Flag('-'), f.Flag('+'), f.Flag('#'), f.Flag(' '), f.Flag('0'))
}

type testGo struct{ n int }

func (testGo) GoString() string { return "GO!" }

type testPanics struct{}

func (testPanics) String() string { panic("boom") }

// TestPrinterMatchesFmt: for native values the printer prints exactly what
// fmt prints, for every verb and flag.
func TestPrinterMatchesFmt(t *testing.T) {
	ts := NewTypes()
	x := 7
	var nilp *testPoint
	var nilm map[string]int
	var nils []int
	var nilErr error
	values := []any{
		nil, true, 0, -42, int8(-3), uint8(200), uint64(math.MaxUint64), uintptr(12), 3.5, float32(0.1), -0.0, math.Inf(1), math.NaN(),
		complex(1, -2), complex64(3), "héllo", "", []byte("ab"), [3]byte{1, 2, 3}, []int{1, 2}, nils, [2]string{"a", "b"},
		map[string]int{"b": 2, "a": 1}, map[int][]string{2: {"x"}, 1: nil}, nilm, map[any]int{1: 1, "a": 2, nil: 3},
		testPoint{1, 2, "p"}, &testPoint{3, 4, "q"}, nilp, []*testPoint{nil, {5, 6, "r"}}, &x, []any{1, "a", nil, testStringer{3}, &testPtrStringer{4}},
		testStringer{1}, &testStringer{2}, testPtrStringer{5}, &testPtrStringer{6}, []testStringer{{7}}, map[testStringer]int{{8}: 1},
		errors.New("err"), nilErr, fmt.Errorf("wrap: %w", errors.New("inner")), time.Duration(1500) * time.Millisecond, time.March,
		testFormatter{}, testGo{1}, []testGo{{2}}, testPanics{}, (*testPtrStringer)(nil), big.NewInt(12345),
		struct {
			A any
			e error
			s fmt.Stringer
		}{1, errors.New("x"), testStringer{9}},
		struct{ P *testPoint }{&testPoint{}}, []error{errors.New("e1"), nil}, [][]int{{1}, {2, 3}}, 'x', [0]int{},
	}
	verbs := "vdsqxXTtbcoOUeEfFgGp"
	flagSets := []string{"", "+", "#", "-", " ", "0", "+#", "8", "-8", "08", ".2", "8.3", "#8", "+.1"}
	for _, v := range values {
		for _, verb := range verbs {
			for _, fl := range flagSets {
				format := "%" + fl + string(verb)
				want := fmt.Sprintf(format, v)
				got := Sprintf(format, ts.Typed(v, "interface {}"))
				if got != want {
					t.Errorf("Sprintf(%q, %#v):\n got %q\nwant %q", format, v, got, want)
				}
			}
		}
		if got, want := Sprint(ts.Typed(v, "interface {}"), "s", 1, ts.Typed(v, "interface {}")), fmt.Sprint(v, "s", 1, v); got != want {
			t.Errorf("Sprint(%#v): got %q, want %q", v, got, want)
		}
		if got, want := Sprintln(ts.Typed(v, "interface {}"), 2), fmt.Sprintln(v, 2); got != want {
			t.Errorf("Sprintln(%#v): got %q, want %q", v, got, want)
		}
	}
}

// TestPrinterFormats: the format string's syntax, errors and argument
// indexes as fmt has them.
func TestPrinterFormats(t *testing.T) {
	ts := NewTypes()
	typed := func(a []any) []any {
		out := make([]any, len(a))
		for i, x := range a {
			out[i] = ts.Typed(x, "interface {}")
		}
		return out
	}
	cases := []struct {
		format string
		args   []any
	}{
		{"%d %s", []any{1, "a"}},
		{"%d", nil},
		{"%d %d", []any{1}},
		{"%d", []any{1, 2, "x"}},
		{"%[2]d %[1]d", []any{1, 2}},
		{"%[3]d", []any{1, 2}},
		{"%[0]d", []any{1}},
		{"%[1]d %d %d", []any{1, 2}},
		{"%*d|%-*d|%.*f", []any{5, 1, 4, 2, 2, 3.14159}},
		{"%*d", []any{"x", 1}},
		{"%.*d", []any{-1, 5}},
		{"%[2]*[1]d", []any{7, 4}},
		{"%", []any{1}},
		{"%!", []any{1}},
		{"%%%d%%", []any{3}},
		{"%-05d|%05s|%x|% x|%#q", []any{-3, "ab", "hi", []byte("hi"), "a`b"}},
		{"%v %+v %#v", []any{testPoint{1, 2, "a"}, testPoint{1, 2, "a"}, testPoint{1, 2, "a"}}},
		{"%10.3v|%-10v|", []any{"abcdef", []int{1, 2}}},
		{"%w", []any{errors.New("e")}},
		{"%[1]v %[1]T", []any{3}},
		{"%3c|%-4q|%U|%#U", []any{'a', 'b', 0x1F600, 0x1F600}},
		{"no verbs", []any{1, nil}},
		{"%.3s|%.0d|%6.2f|%-8.3e|%+g", []any{"abcdef", 0, math.Pi, 12345.678, 1e21}},
		{"%1000001d", []any{1}},
	}
	for _, c := range cases {
		want := fmt.Sprintf(c.format, c.args...)
		if got := Sprintf(c.format, typed(c.args)...); got != want {
			t.Errorf("Sprintf(%q, %v):\n got %q\nwant %q", c.format, c.args, got, want)
		}
		// Mixed: only the first argument typed.
		if len(c.args) > 0 {
			mixed := append([]any{ts.Typed(c.args[0], "interface {}")}, c.args[1:]...)
			if got := Sprintf(c.format, mixed...); got != want {
				t.Errorf("Sprintf(%q, %v) with one typed:\n got %q\nwant %q", c.format, c.args, got, want)
			}
		}
	}
}

// TestPrinterErrorf: the error fmt.Errorf makes, with the message the
// printer writes.
func TestPrinterErrorf(t *testing.T) {
	ts := NewTypes()
	base := errors.New("base")
	other := errors.New("other")
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"x %d", []any{1}},
		{"wrap %w", []any{base}},
		{"two %w %w", []any{base, other}},
		{"re %[2]w %[1]w %[2]w", []any{base, other}},
		{"bad %w", []any{3}},
		{"percent 100%% %w", []any{base}},
	} {
		want := fmt.Errorf(c.format, c.args...)
		typed := make([]any, len(c.args))
		for i, a := range c.args {
			typed[i] = ts.Typed(a, "interface {}")
		}
		got := Errorf(c.format, typed...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q): message %q, want %q", c.format, got.Error(), want.Error())
		}
		if !strings.Contains(c.format, "bad") && fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Errorf("Errorf(%q): %T, want %T", c.format, got, want)
		}
		for _, target := range []error{base, other} {
			if errors.Is(got, target) != errors.Is(want, target) {
				t.Errorf("Errorf(%q): errors.Is(%v) = %v", c.format, target, errors.Is(got, target))
			}
		}
	}
}

// fmtError makes the error fmt.Errorf makes, of fmt's types, also where
// some %w arguments are no errors.
func TestFmtError(t *testing.T) {
	eof := errors.New("eof")
	for _, c := range []struct {
		format string
		args   []any
		n      int
	}{
		{"plain", nil, 0},
		{"one %w", []any{eof}, 1},
		{"one %w", []any{3}, 1},
		{"two %w %w", []any{eof, 3}, 2},
		{"two %w %w", []any{"a", 3}, 2},
		{"twice %[1]w %[1]w", []any{eof}, 2},
		{"100%% %w", []any{eof}, 1},
	} {
		want := fmt.Errorf(c.format, c.args...)
		var errs []error
		seen := map[any]bool{}
		for _, a := range c.args {
			if e, ok := a.(error); ok && !seen[e] {
				errs = append(errs, e)
				seen[e] = true
			}
		}
		got := fmtError(want.Error(), c.n, errs)
		if fmt.Sprintf("%T %q %v", got, got, errors.Unwrap(got)) != fmt.Sprintf("%T %q %v", want, want, errors.Unwrap(want)) {
			t.Errorf("%q: got %T %q, want %T %q", c.format, got, got, want, want)
		}
		if u, ok := want.(interface{ Unwrap() []error }); ok {
			if g, _ := got.(interface{ Unwrap() []error }); g == nil || fmt.Sprint(g.Unwrap()) != fmt.Sprint(u.Unwrap()) {
				t.Errorf("%q: Unwrap() []error differs", c.format)
			}
		}
	}
}
