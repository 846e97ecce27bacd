package compat

import (
	"go/ast"
	"go/types"
)

// complexContexts: a constant that a return, a send or a switch case
// makes complex (return 2 from a func() complex128, ch <- 3 on a chan
// complex128, case 3: in a switch on a complex128) is converted to its
// type, as a conversion converts it the way Go does. yaegi v0.16.1 converts such a constant from the value
// it was written with, with reflect.Value.Convert (interp/run.go:3643,
// convertLiteralValue), which converts no int or float to a complex
// number: "reflect.Value.Convert: value of type int cannot be converted
// to type complex128", a panic when the function returned and a failed
// compilation for the send. (Assignments, arguments and composite
// literals convert constants another way, which works.)
//
//	return 2  =>  return complex128(2)
//	return 0  =>  return T(0)  (in a generic function, T possibly complex)
var complexContexts = Pass{
	Name:     "complexcontexts",
	Run:      runComplexContexts,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil), (*ast.SendStmt)(nil), (*ast.CaseClause)(nil)},
	Snippets: []string{"complex_constant_return", "complex_constant_redefined"},
}

func runComplexContexts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch x := cur.Node().(type) {
		case *ast.ReturnStmt:
			c.complexConstants(x.Results)
		case *ast.SendStmt:
			x.Value = c.complexConstants([]ast.Expr{x.Value})[0]
		case *ast.CaseClause:
			c.complexConstants(x.List)
		}
		return true
	})
}

// complexConstants converts the complex constants among es to their
// type, in place, and returns es.
func (c *Cell) complexConstants(es []ast.Expr) []ast.Expr {
	for i, e := range es {
		tv, ok := c.Types.Types[e]
		if !ok || tv.Value == nil || tv.Type == nil || !c.maybeComplex(tv.Type) {
			continue
		}
		es[i] = c.convertTo(tv.Type, e)
	}
	return es
}

// maybeComplex reports whether t is a complex type, or a type parameter
// that may be one (in a generic function the oracle keeps a constant's
// untyped value with the parameter's type).
func (c *Cell) maybeComplex(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return !typeSetAll(tp.Constraint(), notComplex)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsComplex != 0
}

func notComplex(b *types.Basic) bool { return b.Info()&types.IsComplex == 0 }
