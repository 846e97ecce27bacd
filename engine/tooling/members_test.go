package tooling

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"

	"grundy/engine/typecheck"
)

// oracleCells are session cells for the cases the type oracle answers that
// no reflection could: methods of cell types by receiver kind, promotion
// through embedding, generic instances.
var oracleCells = []string{
	"type box struct{ n int }\nfunc (b box) Get() int { return b.n }",
	"func (b *box) Inc() { b.n++ }\nfunc mk() box { return box{} }",
	"type inner struct{ Deep int }\nfunc (inner) Hello() string { return \"hi\" }\ntype outer struct {\n\tinner\n\tOwn string\n}",
	"type holder struct{ B box }\nvar hold holder\nvar boxes []box",
	"type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nfunc (s *Stack[T]) Top() T { return s.items[len(s.items)-1] }",
	"func Id[T any](x T) T { return x }",
}

func TestCompleteOracle(t *testing.T) {
	sc := newFakeScope(t, oracleCells...)
	tests := []struct {
		name string
		code string // | marks the cursor (default: end)
		want []string
	}{
		{"value and pointer methods of a variable", "b := box{}\nb.", []string{"Get", "Inc", "n"}},
		{"a session variable's field, addressable", "hold.B.", []string{"Get", "Inc", "n"}},
		{"no pointer methods on a call's result", "mk().", []string{"Get", "n"}},
		{"no pointer methods on a composite literal", "box{}.", []string{"Get", "n"}},
		{"pointer methods through &", "(&box{}).", []string{"Get", "Inc", "n"}},
		{"element of a session slice", "boxes[0].", []string{"Get", "Inc", "n"}},
		{"promoted through embedding", "o := outer{}\no.", []string{"Deep", "Hello", "Own", "inner"}},
		{"promoted, with a prefix", "var o outer\no.He", []string{"Hello"}},
		{"generic instance", "s := &Stack[box]{}\ns.", []string{"Push", "Top", "items"}},
		{"generic method result", "s := &Stack[box]{}\ns.Top().", []string{"Get", "n"}},
		{"generic function result", "Id(box{}).", []string{"Get", "n"}},
		{"generic function result, explicit", "Id[*box](nil).", []string{"Get", "Inc", "n"}},
		{"library method through a cell type's field", "type wrap struct{ G *games.Game }\nw := wrap{}\nw.G.So", []string{"Solve"}},
		{"in a statement header", "if v := mk(); v.", []string{"Get", "Inc", "n"}},
		{"in a switch", "switch mk().", []string{"Get", "n"}},
		{"a range variable in a function", "func f(xs []box) int {\n\tfor _, x := range xs {\n\t\tx.", []string{"Get", "Inc", "n"}},
		{"a parameter", "func f(o *outer) {\n\to.", []string{"Deep", "Hello", "Own", "inner"}},
		{"inside a method of a session type", "func (b *box) Twice() {\n\tb.", []string{"Get", "Inc", "Twice", "n"}},
		{"a method this cell declares on a session type", "func (b box) Half() int { return b.n / 2 }\nmk().", []string{"Get", "Half", "n"}},
		{"a pointer method this cell declares, not on a call", "func (b *box) Dec() { b.n-- }\nmk().", []string{"Get", "n"}},
		{"the cell's own type", "type pair struct{ L, R box }\np := pair{}\np.L.", []string{"Get", "Inc", "n"}},
		{"a type's method expressions", "box.", []string{"Get"}},
		{"earlier statements of the cell, chained", "o := outer{}\nh := o.Hello()\nh.", nil},
		{"a cell variable shadows a package", "strings := box{}\nstrings.", []string{"Get", "Inc", "n"}},
		{"in the middle of the cell", "b := box{}\nb.|\nx := 3", []string{"Get", "Inc", "n"}},
		{"after a syntax error earlier in the cell", "x := (\nhold.B.", []string{"Get", "Inc", "n"}},
		{"an element of a composite literal", "b := box{}\nxs := []box{\n\t{n: 1},\n\tb.", []string{"Get", "Inc", "n"}},
		{"a statement after a comment", "func f(b box) {\n\t// note\n\tb.", []string{"Get", "Inc", "n"}},
		{"a type parameter's methods", "func show[T fmt.Stringer](x T) string {\n\treturn x.", []string{"String"}},
		{"a generic type's field in its method", "type queue[T any] struct{ items []T }\nfunc (q *queue[T]) Len() int {\n\treturn len(q.it", []string{"items"}},
		// Keys of a struct literal: its fields, then the names in scope.
		{"a struct literal's keys", "type point struct{ Xpos, Ypos int }\np := point{Xp", []string{"Xpos"}},
		{"a struct literal's keys, the next", "type point struct{ Xpos, Ypos int }\np := &point{Xpos: 1,\n\tYp", []string{"Ypos"}},
		{"a session type's literal", "o := outer{Ow", []string{"Own"}},
		{"a block is no literal", "if true {\n\tOw", nil},
		{"a slice literal has no keys", "xs := []int{1, ho", []string{"hold", "holder"}},
		// Scope: a function's parameters and locals, the cell's names.
		{"parameters", "func f(alpha, alps int, beta string) {\n\tal", []string{"alpha", "alps"}},
		{"locals declared before the cursor", "func f() {\n\tloc1 := 1\n\tif loc2 := 2; loc2 > 0 {\n\t\tlo|\n\t}\n\tloc3 := 3\n}", []string{"loc1", "loc2", "long"}},
		{"a closure's parameters", "apply := func(delta int) int {\n\treturn del", []string{"delete", "delta"}},
		{"type parameters", "func g[Elem any](x Elem) El", []string{"Elem"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, cursor := at(tc.code)
			c := complete(sc, code, cursor)
			if !slices.Equal(c.Matches, tc.want) && !(len(c.Matches) == 0 && len(tc.want) == 0) {
				t.Errorf("matches = %q; want %q", c.Matches, tc.want)
			}
		})
	}
}

// A draft declaring a method on a session type leaves the type as it was:
// the cell has not run.
func TestDraftLeavesSessionTypes(t *testing.T) {
	sc := newFakeScope(t, oracleCells...)
	code := "func (b *box) Dec() { b.n-- }\nb := box{}\nb."
	if c := complete(sc, code, len(code)); !slices.Contains(c.Matches, "Dec") {
		t.Fatalf("matches = %q; want Dec among them", c.Matches)
	}
	if c := complete(sc, "b := box{}\nb.", 12); slices.Contains(c.Matches, "Dec") {
		t.Errorf("after the draft, box has Dec: %q", c.Matches)
	}
}

func TestInspectOracle(t *testing.T) {
	sc := newFakeScope(t, oracleCells...)
	tests := []struct {
		code string // | marks the cursor
		has  []string
	}{
		{"b := box{}\nb.Inc|()", []string{"func (*box) Inc()"}},
		{"hold.B|", []string{"field B box // in holder"}},
		{"o := outer{}\no.Deep|", []string{"field Deep int"}},
		{"o := outer{}\no.Hello|()", []string{"func (inner) Hello() string"}},
		{"s := &Stack[box]{}\ns.Top|()", []string{"Top() box"}},
		{"Id|(box{})", []string{"func Id[T any](x T) T"}},
		{"x := Id(box{})\nx|", []string{"var x box", "func (*box) Inc()", "func (box) Get() int"}},
		{"box|", []string{"type box struct{n int}", "func (box) Get() int", "func (*box) Inc()"}},
		{"func f(alpha int) {\n\talpha|", []string{"var alpha int"}},
		{"mk().Get|()", []string{"func (box) Get() int"}},
		{"const big = 1 << 40\nbig|", []string{"const big untyped int", "value: 1099511627776"}},
		{"games.CNDefault|", []string{"const games.CNDefault int", "value: 3"}},
		{"// Half halves.\nfunc (b box) Half() int { return b.n / 2 }\nmk().Half|()", []string{"func (b box) Half() int", "Half halves."}},
	}
	for _, tc := range tests {
		code, cursor := at(tc.code)
		b, ok := inspect(sc, code, cursor, 0)
		if !ok {
			t.Errorf("inspect %q: nothing found", tc.code)
			continue
		}
		text, _ := b["text/plain"].(string)
		for _, h := range tc.has {
			if !strings.Contains(text, h) {
				t.Errorf("inspect %q lacks %q:\n%s", tc.code, h, text)
			}
		}
	}
}

// An interface's method names the interface as its receiver.
func TestInspectInterfaceMethod(t *testing.T) {
	sc := newFakeScope(t, "type shape interface{ Area() float64 }\nvar sh shape")
	for code, want := range map[string]string{
		"sh.Area|()":                      "func (shape) Area() float64",
		"var s fmt.Stringer\ns.String|()": "Stringer) String() string", // from the docs when GOROOT has them
	} {
		code, cursor := at(code)
		b, ok := inspect(sc, code, cursor, 0)
		if text, _ := b["text/plain"].(string); !ok || !strings.Contains(text, want) {
			t.Errorf("inspect %q = %q; want %q", code, text, want)
		}
	}
}

// A session variable the oracle could not type is shown with its value's
// type.
func TestInspectUntypedSessionVar(t *testing.T) {
	sc := newFakeScope(t)
	in := sc.tc.Check(token.NewFileSet(), typecheck.Cell{Decls: []ast.Decl{&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent("odd")}, Type: ast.NewIdent("undefinedType")}}}}})
	sc.tc.Commit(in)
	sc.values["odd"] = reflect.ValueOf(42)
	b, ok := inspect(sc, "odd", 3, 0)
	if text, _ := b["text/plain"].(string); !ok || !strings.Contains(text, "var odd int") || !strings.Contains(text, "value: 42") {
		t.Errorf("inspect odd = %q", text)
	}
}
