package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// operatorIfaces: an operation (-x, !ok, n % 3, n << 2, x%3 == 0)
// assigned, declared or returned as a value of an interface type (var v
// any; v = -n; r.Value = i * i, r a *ring.Ring; return n%3 == 0 from a
// function returning any). yaegi v0.16.1 compiles an operation to write
// straight into its destination (interp/cfg.go:757, "Optimize single
// assignments from some arithmetic operations"), and several operators
// have no code for a destination of interface type (interp/run.go and
// op.go switch on the destination's kind), nor is a native struct's field
// a destination it can write: -, ^, %, << and >> left no code at all, so
// the function, or the cell, silently stopped there (return -x returned
// nil, a cell printed nothing more; r.Value = i * i lost the value), and
// ! and a comparison returned panicked "reflect: call of
// reflect.Value.SetBool on interface Value". In parentheses the
// operation has a place of its own, of its own type:
//
//	v = -n  =>  v = (-n)
var operatorIfaces = Pass{
	Name:     "operatorifaces",
	Run:      runOperatorIfaces,
	Kinds:    []ast.Node{(*ast.UnaryExpr)(nil), (*ast.BinaryExpr)(nil)},
	Snippets: []string{"operators_into_interface", "native_iface_field_operation"},
}

func runOperatorIfaces(c *Cell) {
	wrap := func(e *ast.Expr, to types.Type) {
		if to != nil && types.IsInterface(to) && isOperation(*e) {
			// Constants too: yaegi does not fold len("xyz") << 2.
			*e = &ast.ParenExpr{Lparen: (*e).Pos(), X: *e, Rparen: (*e).End()}
		}
	}
	var results []*types.Tuple // of the functions around, innermost last
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			var sig *types.Signature
			var body *ast.BlockStmt
			if fd, ok := n.(*ast.FuncDecl); ok {
				if fn, ok := c.Types.Defs[fd.Name].(*types.Func); ok {
					sig, _ = fn.Type().(*types.Signature)
				}
				body = fd.Body
			} else {
				lit := n.(*ast.FuncLit)
				sig, _ = c.Types.TypeOf(lit).(*types.Signature)
				body = lit.Body
			}
			if body == nil {
				return false
			}
			var res *types.Tuple
			if sig != nil {
				res = sig.Results()
			}
			results = append(results, res)
			ast.Inspect(body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
				for i := range n.Rhs {
					to := c.Types.TypeOf(n.Lhs[i])
					if isIdent(n.Lhs[i], "_") {
						to = types.NewInterfaceType(nil, nil) // (_ = f() == g() panicked likewise)
					}
					wrap(&n.Rhs[i], to)
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && len(n.Values) == len(n.Names) {
				for i := range n.Values {
					wrap(&n.Values[i], c.Types.TypeOf(n.Type))
				}
			}
		case *ast.ReturnStmt:
			if len(results) > 0 {
				if res := results[len(results)-1]; res != nil && res.Len() == len(n.Results) {
					for i := range n.Results {
						wrap(&n.Results[i], res.At(i).Type())
					}
				}
			}
		}
		return true
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, visit)
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
