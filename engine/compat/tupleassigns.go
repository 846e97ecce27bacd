package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// tupleAssigns: an assignment of several values one of which is a call,
// a composite literal or a receive (out, r = append(out, r[0]), r[1:]).
// yaegi v0.16.1 lets such a value write straight into its place and then
// skips the whole statement's assignment (interp/cfg.go:731 and 754, n.gen
// = nop on the statement, decided per value), so the other values were
// never assigned: r stayed as it was and a merge sort looped forever;
// "a, b = len(s), 7" left b alone, "p, n := P{1}, len(s)" left n zero, a
// loop's "i, u = i+1, max(u, i)" never advanced; and two calls that wrote
// straight in (a, b = f(b), g(a)) saw each other's results. Such a value
// is put in parentheses, which yaegi evaluates into a place of their own
// and which the statement then assigns with the others, as Go does:
//
//	out, r = (append(out, r[0])), r[1:]
var tupleAssigns = Pass{
	Name:     "tupleassigns",
	Run:      runTupleAssigns,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"tuple_assign_call_and_value"},
}

func runTupleAssigns(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) || c.allCallsInPlace(as) {
				return true
			}
			for i, v := range as.Rhs {
				if writesInPlace(v) {
					as.Rhs[i] = &ast.ParenExpr{Lparen: v.Pos(), X: v, Rparen: v.End()}
				}
			}
			return true
		})
	}
}

// allCallsInPlace reports whether every value of the assignment "="
// is a call of a function or method (or min, max) that yaegi writes
// straight into its place, of its place's type and not an interface, no
// value reads a place assigned before it, and no call can (see
// unseenByCalls): then each value is written
// in turn, as Go would assign them ("x, y = inc(x), dec(y)" in a hot
// loop keeps its speed).
func (c *Cell) allCallsInPlace(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN {
		return false
	}
	var before []string
	for i, v := range as.Rhs {
		call, ok := v.(*ast.CallExpr)
		if !ok || c.callee(call) == nil && !c.isMinMax(call) {
			return false
		}
		lt, vt := c.Types.TypeOf(as.Lhs[i]), c.Types.TypeOf(v)
		if lt == nil || vt == nil || !types.Identical(lt, vt) || types.IsInterface(lt) {
			return false
		}
		if contains(v, false, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && slices.Contains(before, id.Name) }) {
			return false
		}
		id, _ := rootIdent(as.Lhs[i])
		if id == nil || i < len(as.Rhs)-1 && !c.unseenByCalls(as.Lhs[i]) {
			return false
		}
		before = append(before, id.Name)
	}
	return true
}

// unseenByCalls reports whether a function the cell calls cannot read the
// place e before the statement ends: a variable of a function or of the
// cell's statements, not an element, a field or a package's variable
// (x[1], y[0] = f(0), f(1), y sharing x's array and f reading it, saw
// x[1] written before f(1) ran).
func (c *Cell) unseenByCalls(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.Types.ObjectOf(id).(*types.Var)
	return ok && v.Parent() != nil && !cellGlobal(v)
}

func (c *Cell) isMinMax(call *ast.CallExpr) bool {
	id, ok := unindex(call.Fun).(*ast.Ident)
	return ok && (id.Name == "min" || id.Name == "max") && c.isBuiltin(id)
}

// writesInPlace reports whether yaegi writes the value v straight into
// the place it is assigned to.
func writesInPlace(v ast.Expr) bool {
	switch v := v.(type) {
	case *ast.CallExpr, *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		return v.Op == token.ARROW
	}
	return false
}
