package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// instanceLits: a composite literal of an instance of a generic type with
// two or more type arguments, written with the type parameters of a
// generic function or method (return Pair[B, A]{p.Second, p.First}), is
// written as a variable and assignments to its fields. yaegi v0.16.1
// compiles such a literal's type as the node of the instance's
// declaration, shared by every literal of the instance
// (interp/cfg.go:361, n.child[0] = g.lastChild()), and each compilation
// gives that node a place in the frame of the function it is compiling: a
// literal compiled later moves the place an earlier one reads, which then
// reads another value (Pair[A, A]{p.First, p.First} in a method printed
// {2 1} for {1 1}) or indexes past its frame. Literals whose type has no
// type parameter are written with an alias instead (instanceArgs). The
// variable is declared where the literal's statement stands, which is
// only done where nothing in the statement that calls a function is
// evaluated before the literal: the literal (or its address) returned,
// assigned, sent or declared alone, or a result returned or an argument
// of the statement's one call (append(out, Pair[K, V]{k, v})) after
// operands that call nothing. Elsewhere (an element of another literal,
// an argument among others) the variable is declared in a function
// literal called where the literal stands; a literal of a generic type
// that is not a struct is refused there, with the way to write it.
var instanceLits = Pass{
	Name:     "instancelits",
	Run:      runInstanceLits,
	Kinds:    []ast.Node{(*ast.IndexListExpr)(nil)},
	Snippets: []string{"generics_instance_literals"},
}

func runInstanceLits(c *Cell) {
	c.nonStructInstances()
	if c.err != nil {
		return
	}
	done := map[*ast.CompositeLit]bool{}
	c.Apply(func(cur Cursor) bool {
		st, ok := cur.Node().(ast.Stmt)
		if !ok || cur.Index() < 0 {
			return true
		}
		var root *ast.Expr
		switch s := st.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) == 1 {
				root = &s.Results[0]
			} else if slot := c.instanceLitSlot(s.Results); slot != nil {
				root = slot // return Pair[K, V]{k, v}, true
			}
		case *ast.SendStmt:
			if !c.callsAnything([]ast.Expr{s.Chan}) {
				root = &s.Value // ch <- Pair[K, V]{k, v}
			}
		case *ast.AssignStmt:
			if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
				root = &s.Rhs[0]
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
				if vs := gd.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 && len(vs.Values) == 1 {
					root = &vs.Values[0]
				}
			}
		case *ast.ExprStmt:
			root = &s.X
		}
		if root == nil {
			return true
		}
		slot := root
		if call, ok := (*root).(*ast.CallExpr); ok {
			// An argument of the statement's one call, after operands
			// whose evaluation calls nothing: append(out, Pair[K, V]{...}).
			slot = nil
			if !c.callsAnything([]ast.Expr{call.Fun}) {
				slot = c.instanceLitSlot(call.Args)
			}
		}
		if slot == nil {
			return true
		}
		e, addr := ast.Unparen(*slot), false
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e, addr = ast.Unparen(u.X), true
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok || !c.isParamInstanceLit(lit) {
			return true
		}
		fields, ok := c.litFields(lit)
		if !ok {
			return true
		}
		done[lit] = true
		pos := lit.Pos()
		tmp := ident(c.Temp("L"), pos)
		for _, st := range litVar(lit, fields, tmp.Name) {
			cur.InsertBefore(st)
		}
		*slot = ident(tmp.Name, pos)
		if addr { // a new variable each time the statement runs, as a literal's
			*slot = &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(tmp.Name, pos)}
		}
		return true
	})
	if c.err != nil {
		return
	}
	// Elsewhere (an argument of a call among others, an element of
	// another literal) the variable is declared in a function literal
	// called where the literal stands:
	//
	//	func() *entry[K, V] { var _grundyL1 entry[K, V]; _grundyL1.key, _grundyL1.val = k, v; return &_grundyL1 }()
	c.Apply(func(cur Cursor) bool {
		lit, addr := (*ast.CompositeLit)(nil), false
		switch n := cur.Node().(type) {
		case *ast.UnaryExpr:
			lit, _ = ast.Unparen(n.X).(*ast.CompositeLit)
			addr = n.Op == token.AND
			if !addr {
				return true
			}
		case *ast.CompositeLit:
			if u, ok := cur.Parent().(*ast.UnaryExpr); ok && u.Op == token.AND {
				return true // at the &
			}
			lit = n
		}
		if lit == nil || done[lit] || !c.isParamInstanceLit(lit) {
			return true
		}
		fields, ok := c.litFields(lit)
		if !ok {
			c.Fail(lit.Pos(), "%s{...} here, in a generic function or method, cannot be compiled by this interpreter; declare a variable and set its fields, then use it: var v %s; v.F1, v.F2 = ...", ExprString(lit.Type), ExprString(lit.Type))
			return false
		}
		done[lit] = true
		cur.Replace(c.litInFunc(lit, fields, addr))
		return true
	})
}

// nonStructInstances writes a literal of such an instance whose type is
// not a struct (type Cache[K comparable, V any] map[K]V: Cache[K, V]{})
// as a literal of its underlying type, map[K]V{}, and make(Cache[K, V],
// n) as make(map[K]V, n), each passed through a parameter of the
// instance's type as instanceConvs writes a conversion, which yaegi
// compiles: the literal failed as the struct literal does
// and make did not compile. The address of such a literal is refused,
// with the variable to write.
func (c *Cell) nonStructInstances() {
	c.Apply(func(cur Cursor) bool {
		var typ ast.Expr // the instance
		var conv func(under ast.Expr) ast.Expr
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			if !c.isParamInstanceLit(n) {
				return true
			}
			typ, conv = n.Type, func(under ast.Expr) ast.Expr {
				n.Type = under
				return n
			}
		case *ast.CallExpr:
			if len(n.Args) == 0 || !c.isBuiltin(ast.Unparen(n.Fun)) || ast.Unparen(n.Fun).(*ast.Ident).Name != "make" {
				return true
			}
			if _, ok := ast.Unparen(n.Args[0]).(*ast.IndexListExpr); !ok || !hasTypeParam(c.Types.TypeOf(n.Args[0])) {
				return true
			}
			typ, conv = n.Args[0], func(under ast.Expr) ast.Expr {
				n.Args[0] = under
				return n
			}
		default:
			return true
		}
		t := c.Types.TypeOf(typ)
		if lit, ok := cur.Node().(*ast.CompositeLit); ok {
			t = c.Types.TypeOf(lit) // (an alias's instance has its type there)
		}
		if _, ok := typeUnder(t).(*types.Struct); ok || t == nil {
			return true
		}
		pos := typ.Pos()
		under, ok := c.TypeExpr(t.Underlying(), pos)
		if !ok {
			return true
		}
		if u, ok := cur.Parent().(*ast.UnaryExpr); ok && u.Op == token.AND {
			c.Fail(pos, "&%s{...} here, in a generic function or method, cannot be compiled by this interpreter; declare a variable and take its address: v := %s(%s{...}); use &v", ExprString(typ), ExprString(typ), ExprString(under))
			return false
		}
		// (a conversion to the instance is passed through a parameter, as
		// instanceConvs writes it)
		out, ok := c.throughParam(t, conv(under), pos)
		if !ok {
			return true
		}
		cur.Replace(out)
		return true
	})
}

// litInFunc is lit, whose struct fields are fields, made in a function
// literal called in its place (its address, with addr).
func (c *Cell) litInFunc(lit *ast.CompositeLit, fields []string, addr bool) ast.Expr {
	pos := lit.Pos()
	tmp := c.Temp("L")
	body := litVar(lit, fields, tmp)
	var ret ast.Expr = ident(tmp, pos)
	typ := lit.Type
	if addr {
		ret = &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ret}
		typ = &ast.StarExpr{Star: pos, X: lit.Type}
	}
	body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ret}})
	return &ast.CallExpr{Fun: funcLit(pos, lit.End(), results(typ), body...), Lparen: pos, Rparen: lit.End()}
}

// litVar declares the variable tmp and sets its fields to lit's elements
// (fields are the names of lit's struct fields, in lit's order).
func litVar(lit *ast.CompositeLit, fields []string, tmp string) []ast.Stmt {
	pos := lit.Pos()
	out := []ast.Stmt{&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(tmp, pos)}, Type: lit.Type}}}}}
	if len(fields) == 0 {
		return out
	}
	as := &ast.AssignStmt{Tok: token.ASSIGN, TokPos: pos}
	for i, e := range lit.Elts[:len(fields)] {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		as.Lhs = append(as.Lhs, &ast.SelectorExpr{X: ident(tmp, pos), Sel: ident(fields[i], pos)})
		as.Rhs = append(as.Rhs, e)
	}
	return append(out, as)
}

// instanceLitSlot is the first of es that is such a literal
// (isParamInstanceLitSlot) after operands whose evaluation calls nothing,
// or nil.
func (c *Cell) instanceLitSlot(es []ast.Expr) *ast.Expr {
	for i := range es {
		if c.isParamInstanceLitSlot(es[i]) {
			if c.callsAnything(es[:i]) {
				return nil
			}
			return &es[i]
		}
	}
	return nil
}

// isParamInstanceLitSlot reports whether e is such a literal
// (isParamInstanceLit) or its address.
func (c *Cell) isParamInstanceLitSlot(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	return ok && c.isParamInstanceLit(lit)
}

// callsAnything reports whether evaluating es may call a function (other
// than len or cap, or a conversion) or receive from a channel.
func (c *Cell) callsAnything(es []ast.Expr) bool {
	for _, e := range es {
		if contains(e, false, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") && c.isBuiltin(id) {
					return false
				}
				return !c.Types.IsType(x.Fun)
			case *ast.UnaryExpr:
				return x.Op == token.ARROW
			}
			return false
		}) {
			return true
		}
	}
	return false
}

// isParamInstanceLit reports whether lit is a literal of an instance of a
// generic type with two or more type arguments that mentions a type
// parameter.
func (c *Cell) isParamInstanceLit(lit *ast.CompositeLit) bool {
	if _, ok := ast.Unparen(lit.Type).(*ast.IndexListExpr); !ok {
		return false
	}
	t := c.Types.TypeOf(lit)
	return t != nil && hasTypeParam(t)
}

// litFields are the names of the fields lit's elements set, in order.
func (c *Cell) litFields(lit *ast.CompositeLit) ([]string, bool) {
	st, ok := c.Types.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	var names []string
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				return nil, false
			}
			names = append(names, id.Name)
			continue
		}
		if i >= st.NumFields() {
			break // (structNames's values of fields of no size: see markParams)
		}
		names = append(names, st.Field(i).Name())
	}
	return names, true
}
