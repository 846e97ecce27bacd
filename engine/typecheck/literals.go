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
	specs := map[string]*ast.TypeSpec{} // the cell's own types
	for _, n := range nodes {
		if gd, ok := n.(*ast.GenDecl); ok {
			for _, sp := range gd.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && !ts.Assign.IsValid() {
					specs[ts.Name.Name] = ts
				}
			}
		}
	}
	// named is the type an earlier cell declared under the name t writes
	// (state, item[N]), or nil.
	named := func(t ast.Expr) *types.Named {
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
		n, _ := typeOfName(s.objs[id.Name])
		return n
	}
	key := func(cl *ast.CompositeLit, st *types.Struct) {
		if len(cl.Elts) != st.NumFields() {
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
	// typed walks a literal of the type t an earlier cell's type has in
	// it (the elements of type items[N any] []item[N], a generic
	// function's items[N]{{n, 1}}): its struct is keyed where an earlier
	// cell declared it.
	var typed func(cl *ast.CompositeLit, t types.Type, depth int)
	elidedOf := func(e ast.Expr, t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if cl, ok := e.(*ast.CompositeLit); ok && cl.Type == nil {
			typed(cl, t, depth)
		}
	}
	typed = func(cl *ast.CompositeLit, t types.Type, depth int) {
		if depth > 8 {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Array:
			elem := u.(interface{ Elem() types.Type }).Elem()
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				elidedOf(e, elem, depth+1)
			}
		case *types.Map:
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					elidedOf(kv.Key, u.Key(), depth+1)
					elidedOf(kv.Value, u.Elem(), depth+1)
				}
			}
		case *types.Struct:
			if n, ok := t.(*types.Named); ok && s.objs[n.Origin().Obj().Name()] == n.Origin().Obj() {
				key(cl, u)
			}
		}
	}
	var lit func(cl *ast.CompositeLit, typ ast.Expr, depth int)
	elided := func(e, typ ast.Expr, depth int) {
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		if cl, ok := e.(*ast.CompositeLit); ok && cl.Type == nil {
			lit(cl, typ, depth)
		}
	}
	lit = func(cl *ast.CompositeLit, typ ast.Expr, depth int) {
		if depth > 8 {
			return
		}
		switch t := typ.(type) {
		case *ast.ArrayType:
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				elided(e, t.Elt, depth+1)
			}
			return
		case *ast.MapType:
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					elided(kv.Key, t.Key, depth+1)
					elided(kv.Value, t.Value, depth+1)
				}
			}
			return
		}
		if n := named(typ); n != nil {
			if st, ok := n.Underlying().(*types.Struct); ok {
				key(cl, st)
				return
			}
			typed(cl, n.Underlying(), depth+1) // (an earlier cell's type on a slice, array or map)
			return
		}
		base := typ
		switch x := typ.(type) {
		case *ast.IndexExpr:
			base = x.X
		case *ast.IndexListExpr:
			base = x.X
		}
		if id, ok := base.(*ast.Ident); ok && specs[id.Name] != nil {
			lit(cl, specs[id.Name].Type, depth+1) // (the cell's own type on a slice, array or map)
		}
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && cl.Type != nil {
				lit(cl, cl.Type, 0)
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
