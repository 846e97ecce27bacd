package compat

import (
	"go/ast"
	"go/types"
)

// structConvs: a value of an unnamed struct type assigned where a named
// struct type with its fields is wanted, or the other way round (var o
// Option = opts[1], opts a []struct{ Name string; Take int }; show(a)
// with a such a struct). Go assigns them (their underlying types are
// identical), yaegi v0.16.1 compares their reflect types
// (interp/type.go, assignableTo), which differ once structNames has put
// the named type's name in its first field's tag: the cell failed with
// "cannot use type struct { Name string; Take int} as type main.Option".
// The value is converted, which ignores tags as Go's conversions do:
//
//	var o Option = Option(opts[1])
var structConvs = Pass{
	Name:     "structconvs",
	Run:      runStructConvs,
	Kinds:    assignedKinds,
	Snippets: []string{"struct_unnamed_assigned"},
}

func runStructConvs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		for _, a := range c.assignedValues(cur, nil) {
			vt := c.Types.TypeOf(a.value)
			if vt == nil || !isStruct(a.target) || !isStruct(vt) || types.Identical(vt, a.target) {
				continue
			}
			if named(vt) == named(a.target) {
				continue // both tagged (not assignable in Go), or neither
			}
			if te, ok := c.TypeExpr(a.target, a.value.Pos()); ok {
				a.set(&ast.CallExpr{Fun: te, Lparen: a.value.Pos(), Args: []ast.Expr{a.value}, Rparen: a.value.End()})
			}
		}
		return true
	})
}
