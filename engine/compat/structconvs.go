package compat

import (
	"go/ast"
	"go/token"
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
//
// A struct type without fields has a field of no size that carries its
// name (see structNames), so no conversion makes its value of struct{}
// or the other way round: var u Unit = struct{}{} and Unit(struct{}{})
// failed with "cannot convert expression of type struct {} to type
// main.Unit". The value is evaluated, and the zero value is the result:
//
//	Unit(x)  =>  func() Unit { _ = x; return Unit{} }()
//
// So is struct{}{} compared with a Unit (struct{}{} == u), or used as a
// key of a map keyed by Unit (a literal's key, an index), where Go
// converts it implicitly and yaegi failed the same way.
var structConvs = Pass{
	Name:     "structconvs",
	Run:      runStructConvs,
	Kinds:    append([]ast.Node{(*ast.IndexExpr)(nil), (*ast.BinaryExpr)(nil)}, assignedKinds...),
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
			if conv, ok := c.emptyStructConv(a.target, vt, a.value); ok {
				a.set(conv)
			} else if te, ok := c.TypeExpr(a.target, a.value.Pos()); ok {
				a.set(&ast.CallExpr{Fun: te, Lparen: a.value.Pos(), Args: []ast.Expr{a.value}, Rparen: a.value.End()})
			}
		}
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if len(n.Args) == 1 && c.Types.IsType(n.Fun) {
				if conv, ok := c.emptyStructConv(c.Types.TypeOf(n.Fun), c.Types.TypeOf(n.Args[0]), n.Args[0]); ok {
					cur.Replace(conv)
				}
			}
		case *ast.CompositeLit:
			// A map literal's keys (map[Unit]int{struct{}{}: 1}).
			if m, ok := typeUnder(c.Types.TypeOf(n)).(*types.Map); ok {
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if conv, ok := c.emptyStructConv(m.Key(), c.Types.TypeOf(kv.Key), kv.Key); ok {
							kv.Key = conv
						}
					}
				}
			}
		case *ast.IndexExpr:
			if m, ok := typeUnder(c.Types.TypeOf(n.X)).(*types.Map); ok {
				if conv, ok := c.emptyStructConv(m.Key(), c.Types.TypeOf(n.Index), n.Index); ok {
					n.Index = conv
				}
			}
		case *ast.BinaryExpr:
			// Unit{} == struct{}{}, which Go compares as the unnamed
			// value is assignable to Unit (see mixedCompares).
			if n.Op == token.EQL || n.Op == token.NEQ {
				tx, ty := c.Types.TypeOf(n.X), c.Types.TypeOf(n.Y)
				if conv, ok := c.emptyStructConv(tx, ty, n.Y); ok && isNamedType(tx) {
					n.Y = conv
				} else if conv, ok := c.emptyStructConv(ty, tx, n.X); ok && isNamedType(ty) {
					n.X = conv
				}
			}
		}
		return true
	})
}

// emptyStructConv is x, of the struct type vt without fields, converted to
// t, another: the zero value of t once x is evaluated, when one of them
// is named in its reflect type and the other not (see structConvs).
func (c *Cell) emptyStructConv(t, vt types.Type, x ast.Expr) (ast.Expr, bool) {
	if !emptyStruct(t) || !emptyStruct(vt) || named(t) == named(vt) {
		return nil, false
	}
	pos := x.Pos()
	res, ok1 := c.TypeExpr(t, pos)
	lit, ok2 := c.TypeExpr(t, pos)
	if !ok1 || !ok2 {
		return nil, false
	}
	body := []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{x}},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CompositeLit{Type: lit, Lbrace: pos, Rbrace: pos}}},
	}
	call := &ast.CallExpr{Fun: funcLit(pos, x.End(), results(res), body...), Lparen: pos, Rparen: x.End()}
	if tv, ok := c.Types.Types[x]; ok {
		// Typed as a value of t, for the passes after (fmtArgs).
		tv.Type = t
		c.Types.Types[call] = tv
	}
	return call, true
}

// emptyStruct reports whether t is a struct type without fields.
func emptyStruct(t types.Type) bool {
	if t == nil || isIfaceType(t) {
		return false
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}
