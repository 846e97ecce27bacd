package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// nativeFieldOps: a single assignment of an operation's result (i * i,
// s + t, -x, !ok) to an interface field of a struct from a native package
// (r.Value = i * i, r a *ring.Ring; e.Value of a list.Element).
// yaegi v0.16.1 has the operation write its result straight into the
// destination's frame slot and drops the assignment
// (interp/cfg.go:757, "Optimize single assignments from some arithmetic
// operations"), which a native struct's field is not: the value was lost
// and the function silently ended there (for ! it panicked "SetBool on
// interface Value"). The operation is put in parentheses, which keep the
// assignment:
//
//	r.Value = i * i  =>  r.Value = (i * i)
var nativeFieldOps = Pass{
	Name:     "nativefieldops",
	Run:      runNativeFieldOps,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"native_iface_field_operation"},
}

func runNativeFieldOps(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if isOperation(as.Rhs[0]) && c.nativeIfaceField(as.Lhs[0]) {
				// Constants too: yaegi does not fold len("xyz") << 2.
				as.Rhs[0] = &ast.ParenExpr{Lparen: as.Rhs[0].Pos(), X: as.Rhs[0], Rparen: as.Rhs[0].End()}
			}
			return true
		})
	}
}

// isOperation: e is a binary or unary operation (not &x, not <-ch).
func isOperation(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW
	}
	return false
}

// nativeIfaceField: e selects a field of interface type that a struct of
// a native package declares.
func (c *Cell) nativeIfaceField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	f := s.Obj()
	return f.Pkg() != nil && f.Pkg().Path() != "main" && types.IsInterface(f.Type())
}
