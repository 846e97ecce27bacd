package compat

import (
	"go/ast"
	"go/types"
)

// complexContexts: a constant that a return, a send or a switch case
// makes complex (return 2 from a func() complex128, ch <- 3 on a chan
// complex128, case 3: in a switch on a complex128) is written as a
// complex constant. yaegi v0.16.1 converts such a constant from the value
// it was written with, with reflect.Value.Convert (interp/run.go:3643,
// convertLiteralValue), which converts no int or float to a complex
// number: "reflect.Value.Convert: value of type int cannot be converted
// to type complex128", a panic when the function returned and a failed
// compilation for the send. (Assignments, arguments and composite
// literals convert constants another way, which works.)
//
//	return 2  =>  return (2.0 + 0.0i)
//	return 0  =>  return T(0)  (in a generic function, T possibly complex)
var complexContexts = Pass{
	Name:     "complexcontexts",
	Run:      runComplexContexts,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil), (*ast.SendStmt)(nil), (*ast.CaseClause)(nil)},
	Snippets: []string{"complex_constant_return"},
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

// complexConstants writes the complex constants among es as complex
// literals, in place, and returns es.
func (c *Cell) complexConstants(es []ast.Expr) []ast.Expr {
	for i, e := range es {
		tv, ok := c.Types.Types[e]
		if !ok || !tv.IsValue() || tv.Type == nil {
			continue
		}
		if tp, ok := tv.Type.(*types.TypeParam); ok {
			// In a generic function the constant is a value of type T:
			// a conversion T(0) takes it to each complex instance.
			if literal(e) && !typeSetAll(tp.Constraint(), notComplex) {
				if tx, ok := c.TypeExpr(tp, e.Pos()); ok {
					es[i] = &ast.CallExpr{Fun: tx, Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}
				}
			}
			continue
		}
		if tv.Value == nil {
			continue
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsComplex == 0 {
			continue
		}
		if x := c.constExpr(tv.Value, literalType(tv.Type), e.Pos()); x != nil {
			c.Types.Types[x] = tv
			es[i] = x
		}
	}
	return es
}

func notComplex(b *types.Basic) bool { return b.Info()&types.IsComplex == 0 }

// literal reports whether e is written with literals and operators only.
func literal(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return literal(x.X)
	case *ast.UnaryExpr:
		return literal(x.X)
	case *ast.BinaryExpr:
		return literal(x.X) && literal(x.Y)
	}
	return false
}
