package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// funcRecvs: a method of a function type the cells declare (type Op
// func(a, b int) int with Apply) on a value read from a struct's field,
// c.last.Apply(3, 4). yaegi v0.16.1 types a struct's field of a function type by
// its reflect type, which has no methods, so such a call failed to
// compile ("undefined method: Apply"), where a map's or a slice's element
// and a variable of the type work. The field is converted to its type,
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
		if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv || !c.isFieldRecv(sel.X) {
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

// isFieldRecv reports whether e is a struct's field. (A variable the
// interpreter typed by one, f := c.last; f.Apply, still fails: a
// conversion of a variable made by a call cannot select the method
// either, "undefined selector", so variables are left alone.)
func (c *Cell) isFieldRecv(e ast.Expr) bool { return c.isFieldSelector(e) }
