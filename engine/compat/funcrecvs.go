package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// funcRecvs: a method of a function type the cells declare (type Op
// func(a, b int) int with Apply) on a value read from a struct's field,
// c.last.Apply(3, 4), or from a variable made from one (f := c.last;
// f.Apply). yaegi v0.16.1 types a struct's field of a function type by
// its reflect type, which has no methods, so such a call failed to
// compile ("undefined method: Apply"), where a map's or a slice's element
// and a variable of the type work. The receiver is converted to its type,
// which gives the interpreter the type back:
//
//	c.last.Apply(3, 4)  =>  Op(c.last).Apply(3, 4)
//
// Value receivers only (a pointer receiver needs the place); a
// self-referring function type is a struct already (selfFuncs).
var funcRecvs = Pass{
	Name:     "funcrecvs",
	Run:      runFuncRecvs,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"func_type_methods_from_fields"},
}

func runFuncRecvs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s, ok := c.Types.Selections[sel]
		if !ok || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
			return true
		}
		n, ok := types.Unalias(s.Recv()).(*types.Named)
		if !ok || !typecheck.IsCellType(n) || selfFunc(n) {
			return true
		}
		if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
			return true
		}
		if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv || c.convertedTo(sel.X, n) {
			return true
		}
		tx, ok := c.TypeExpr(n, sel.X.Pos())
		if !ok {
			return true
		}
		conv := &ast.CallExpr{Fun: tx, Lparen: sel.X.Pos(), Args: []ast.Expr{sel.X}, Rparen: sel.X.End()}
		c.Types.Types[conv] = types.TypeAndValue{Type: n}
		sel.X = conv
		return true
	})
}

// convertedTo reports whether e is a conversion to t, T(x).
func (c *Cell) convertedTo(e ast.Expr, t types.Type) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && len(call.Args) == 1 && c.Types.IsType(call.Fun) && types.Identical(c.Types.TypeOf(call.Fun), t)
}
