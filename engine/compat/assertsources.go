package compat

import (
	"go/ast"
	"go/types"
)

// assertSources: x.(T), T a concrete type and x of an interface type
// with methods (a cell's Shape, error). yaegi v0.16.1's failed assertion
// names x's type "interface {}" whatever it is (interp/run.go:478 and
// :544), and from a native interface such as error it names a missing
// method as if T were an interface (interp/run.go:516): Go says
// "interface conversion: main.Shape is main.Rect, not main.Circle" and
// "error is *errors.errorString, not *fs.PathError". Checking every
// assertion before it runs would cost as much as the assertion in the
// loops where games assert their positions, so the pass rewrites
// nothing: it notes, for each type T a one-value assertion asserts to,
// the static type of the asserted values (AssertSources), and the
// runtime, given the session's notes, writes a failed assertion's
// message with that type when only one is noted for T.
var assertSources = Pass{
	Name:     "assertsources",
	Run:      runAssertSources,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"assert_concrete_from_interface_message"},
}

func runAssertSources(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ta, ok := cur.Node().(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil || commaOkParent(cur) {
			return true
		}
		xt, tt := c.Types.TypeOf(ta.X), c.Types.TypeOf(ta.Type)
		if xt == nil || tt == nil || types.IsInterface(tt) || !types.IsInterface(xt) {
			return true
		}
		if _, param := types.Unalias(tt).(*types.TypeParam); param {
			return true
		}
		qual := func(p *types.Package) string { return p.Name() }
		src := ""
		switch it := xt.Underlying().(*types.Interface); {
		case it.Empty():
			src = "interface {}"
		case isNamed(xt):
			src = types.TypeString(xt, qual)
		}
		if c.AssertSources == nil {
			c.AssertSources = map[string]string{}
		}
		t := types.TypeString(tt, qual)
		if old, ok := c.AssertSources[t]; ok && old != src {
			src = "" // asserted from two types: the runtime cannot tell which
		}
		c.AssertSources[t] = src
		return true
	})
}

// isNamed reports whether t is a named type (error, fmt.Stringer, a
// cell's Shape), which the runtime's messages name as types.TypeString
// writes it.
func isNamed(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}
