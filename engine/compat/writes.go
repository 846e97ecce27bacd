package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The writes of a cell: every place it sets a variable, an element or a
// field of one, or lets it be set (takes its address). One walk serves the
// passes that ask whether a variable keeps its value (changedVars:
// ifacecopies, paramconv) and the bounds pass's proofs, which need the
// values assigned.

// write is one way a cell sets a variable.
type write struct {
	tok   token.Token  // DEFINE, ASSIGN, an op-assign, INC, DEC, VAR, RANGE (key), ILLEGAL (anything else)
	rhs   ast.Expr     // the value assigned, when there is one
	x     ast.Expr     // for RANGE, the ranged value
	node  ast.Node     // the statement
	depth int          // 0: the variable itself; more: an element or field of it
	lit   *ast.FuncLit // the innermost function literal it is in
	decl  bool         // it declares the variable (its first value: a parameter, var, :=)
	param bool         // a parameter's value at a call (of a new frame, not a change)
	addr  bool         // its address is taken (it may be set through it anywhere)
	elem  bool         // x[i] = ..., an element of x
}

// walkWrites calls f with each write under root and its variable, and
// visit (when not nil) with every node, its ancestors (stack, ending with
// the node) and the innermost function literal around it.
func (c *Cell) walkWrites(root ast.Node, f func(types.Object, write), visit func(n ast.Node, stack []ast.Node, in *ast.FuncLit)) {
	add := func(e ast.Expr, w write) {
		if obj, depth := c.rootVar(e); obj != nil {
			w.depth = depth
			f(obj, w)
		}
	}
	declares := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && c.Types.Defs[id] != nil
	}
	var lits []*ast.FuncLit
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
				lits = lits[:len(lits)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		var in *ast.FuncLit
		if len(lits) > 0 {
			in = lits[len(lits)-1]
		}
		if visit != nil {
			visit(n, stack, in)
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, n)
		case *ast.FuncType:
			for _, fl := range []*ast.FieldList{n.Params, n.Results} {
				if fl == nil {
					continue
				}
				for _, f := range fl.List {
					for _, id := range f.Names {
						add(id, write{tok: token.ILLEGAL, node: n, lit: in, decl: true})
					}
				}
			}
		case *ast.FuncDecl:
			if n.Recv != nil {
				for _, f := range n.Recv.List {
					for _, id := range f.Names {
						add(id, write{tok: token.ILLEGAL, node: n, decl: true})
					}
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				var rhs ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					rhs = n.Rhs[i]
				}
				add(l, write{tok: n.Tok, rhs: rhs, node: n, lit: in, elem: isElem(l), decl: n.Tok == token.DEFINE && declares(l)})
			}
		case *ast.IncDecStmt:
			add(n.X, write{tok: n.Tok, node: n, lit: in, elem: isElem(n.X)})
		case *ast.RangeStmt:
			define := n.Tok == token.DEFINE
			if n.Key != nil {
				add(n.Key, write{tok: token.RANGE, x: n.X, node: n, lit: in, decl: define})
			}
			if n.Value != nil {
				add(n.Value, write{tok: token.ILLEGAL, node: n, lit: in, decl: define})
			}
		case *ast.DeclStmt:
			c.specVars(n.Decl, func(id *ast.Ident, v ast.Expr) { add(id, write{tok: token.VAR, rhs: v, node: n, lit: in, decl: true}) })
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				add(n.X, write{tok: token.ILLEGAL, node: n, lit: in, addr: true})
			}
		case *ast.SelectorExpr:
			if c.takesAddress(n) {
				add(n.X, write{tok: token.ILLEGAL, node: n, lit: in, addr: true})
			}
		case *ast.TypeSwitchStmt:
			if as, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					add(l, write{tok: token.ILLEGAL, node: n, lit: in, decl: true})
				}
			}
		case *ast.CommClause:
			// Its assignment is also walked; this says the value is
			// received (no bound of it is known).
			if as, ok := n.Comm.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					add(l, write{tok: token.ILLEGAL, node: n, lit: in, decl: as.Tok == token.DEFINE && declares(l)})
				}
			}
		}
		return true
	})
}

// rootVar is the variable an assigned expression sets (x in x, x[i], x.f,
// *x), with the number of steps to it.
func (c *Cell) rootVar(e ast.Expr) (types.Object, int) {
	id, depth := rootIdent(e)
	if id == nil {
		return nil, 0
	}
	if obj, ok := c.Types.ObjectOf(id).(*types.Var); ok {
		return obj, depth
	}
	return nil, 0
}

// cellGlobal reports whether obj is declared at the top level of a cell,
// this one or an earlier one (the oracle checks each cell in a package of
// its own, so an earlier cell's object has another package's scope).
func cellGlobal(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Pkg().Path() == "main" && obj.Parent() == obj.Pkg().Scope()
}

// rootIdent is the identifier a place starts from (x in x, x[i], x.f,
// *x, (x)), with the number of steps to it, or nil.
func rootIdent(e ast.Expr) (*ast.Ident, int) {
	depth := 0
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x, depth
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil, 0
		}
		depth++
	}
}

// specVars calls f with each variable a var declaration declares and its
// value (nil when it has none).
func (c *Cell) specVars(d ast.Decl, f func(id *ast.Ident, v ast.Expr)) {
	gd, ok := d.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		for i, id := range vs.Names {
			var v ast.Expr
			if len(vs.Values) == len(vs.Names) {
				v = vs.Values[i]
			} else if len(vs.Values) > 0 {
				v = &ast.BadExpr{} // one of a call's results
			}
			f(id, v)
		}
	}
}

// isElem reports whether an assigned expression is x[i], x a variable.
func isElem(e ast.Expr) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return false
	}
	_, ok = ast.Unparen(ix.X).(*ast.Ident)
	return ok
}

// changedVars are the variables the cell sets other than where it
// declares them (assigns, increments, ranges into with =, redeclares with
// :=) or takes the address of (also by calling a method with a pointer
// receiver on them): those left out keep the value they were declared or
// passed with.
func (c *Cell) changedVars() map[types.Object]bool {
	changed := map[types.Object]bool{}
	for _, root := range c.Roots() {
		c.walkWrites(root, func(o types.Object, w write) {
			if w.depth == 0 && (w.addr || !w.decl) {
				changed[o] = true
			}
		}, nil)
	}
	return changed
}

// takesAddress reports whether x.m selects a method with a pointer
// receiver on an addressable value (k.Grow() with Grow on *K takes k's
// address; on a k of type *K it does not).
func (c *Cell) takesAddress(n *ast.SelectorExpr) bool {
	sel, ok := c.Types.Selections[n]
	if !ok || sel.Kind() != types.MethodVal {
		return false
	}
	sig, ok := sel.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	_, ptrX := sel.Recv().Underlying().(*types.Pointer)
	return ptrRecv && !ptrX
}
