package typecheck

import (
	"go/ast"
	"go/types"
)

// keyEarlierLiterals writes the positional struct literals of earlier
// cells' struct types with unexported fields (state{w, 1 << w}, and the
// elided ones of a []state{...}) with their fields' names as keys
// (state{at: w, visited: 1 << w}), which Go makes the same value, for
// the check only: it returns what writes them back as they were (yaegi
// v0.16.1 took a keyed literal as a map's key in an operand of || for
// its zero value). Each
// cell is checked as a package of its own, with the earlier cells'
// objects in its scope (see check), and go/types refuses a positional
// literal setting another package's unexported fields ("implicit
// assignment to unexported field"): it then left the elements untyped,
// an untyped shift stayed an int for the passes, and the interpreter
// panicked storing it in the uint32 field. A keyed field is found by the
// package's path, which every cell shares.
func (s *Session) keyEarlierLiterals(nodes []ast.Node, declared map[string]bool) (restore func()) {
	var undo []func()
	earlier := func(t ast.Expr) *types.Struct {
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		id, ok := t.(*ast.Ident)
		if !ok || declared[id.Name] {
			return nil
		}
		named, _ := typeOfName(s.objs[id.Name])
		if named == nil {
			return nil
		}
		st, _ := named.Underlying().(*types.Struct)
		return st
	}
	var lit func(cl *ast.CompositeLit, typ ast.Expr)
	elided := func(e, typ ast.Expr) {
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		if cl, ok := e.(*ast.CompositeLit); ok && cl.Type == nil {
			lit(cl, typ)
		}
	}
	lit = func(cl *ast.CompositeLit, typ ast.Expr) {
		if cl.Type != nil {
			typ = cl.Type
		}
		switch t := typ.(type) {
		case *ast.ArrayType:
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				elided(e, t.Elt)
			}
			return
		case *ast.MapType:
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					elided(kv.Key, t.Key)
					elided(kv.Value, t.Value)
				}
			}
			return
		}
		st := earlier(typ)
		if st == nil || len(cl.Elts) != st.NumFields() {
			return
		}
		unexported := false
		for i := range st.NumFields() {
			unexported = unexported || !st.Field(i).Exported()
		}
		if !unexported {
			return
		}
		for _, e := range cl.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return
			}
		}
		elts := cl.Elts
		cl.Elts = make([]ast.Expr, len(elts))
		for i, e := range elts {
			cl.Elts[i] = &ast.KeyValueExpr{Key: &ast.Ident{NamePos: e.Pos(), Name: st.Field(i).Name()}, Colon: e.Pos(), Value: e}
		}
		undo = append(undo, func() { cl.Elts = elts })
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && cl.Type != nil {
				lit(cl, nil)
			}
			return true
		})
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}
