package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"sort"
)

// instanceCopy is the name of a copy of the cell's generic function name
// with the type arguments targs written in, declared before the cell
// (Cell.Insts) if this cell has not yet; "" when the function's
// declaration is not at hand. The generic functions the copy calls that
// need copies of their own (copyNeeds) are called as theirs.
func (c *Cell) instanceCopy(name string, targs []ast.Expr, pos token.Pos) string {
	fd := c.funcDecl(name)
	if fd == nil || fd.Type.TypeParams == nil {
		return ""
	}
	params := typeParamNames(fd.Type.TypeParams)
	if len(params) != len(targs) {
		return ""
	}
	src := ExprString(fd)
	// The name does not depend on the function's source: a cell that
	// declares the function again declares its copies again under the
	// same names, and the session compiles again the functions that call
	// them (see recopy).
	key := []string{name}
	subst := map[string]ast.Expr{}
	for i, n := range params {
		t, err := parser.ParseExpr(ExprString(targs[i])) // the copy's own nodes
		if err != nil {
			return ""
		}
		subst[n] = asOperand(t)
		key = append(key, ExprString(targs[i]))
	}
	inst := hashedName("Inst_"+name, key...)
	if c.declared[inst] {
		return inst
	}
	if c.Copies == nil {
		c.Copies = map[string]Copy{}
	}
	c.Copies[inst] = Copy{Func: name, TypeArgs: targs}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return ""
	}
	c.noteDeclared(inst)
	cp := f.Decls[0].(*ast.FuncDecl)
	boxed, empty := c.boxedTypeArgs(cp, targs)
	boxedParamChecks(cp, boxed, empty)
	cp.Name = ident(inst, pos)
	cp.Type.TypeParams = nil
	replaceIdents(cp, subst)
	unconvert(cp)
	c.aliasNested(cp)
	cp = AtPos(cp, pos)
	ast.Inspect(cp.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		g, args := indexed(call.Fun)
		if g == nil || len(args) == 0 {
			return true
		}
		gd := c.funcDecl(g.Name)
		if gd == nil || gd.Type.TypeParams == nil {
			return true
		}
		k := len(typeParamNames(gd.Type.TypeParams))
		if !c.copyNeeds(g.Name, map[string]bool{}) && !c.converts(g.Name) && !c.nestsInstances(g.Name) && !c.mutualGenerics(g.Name) &&
			(k > len(args) || c.boxedParams(g.Name, c.writtenTypes(args[:k])) == nil) {
			return true
		}
		if k <= len(args) {
			if name := c.instanceCopy(g.Name, args[:k], pos); name != "" {
				call.Fun = ident(name, call.Fun.Pos())
			}
		}
		return true
	})
	c.Insts = append(c.Insts, cp)
	return inst
}

// instanceIDs are the identifiers the oracle records an instantiation
// at (c.Types.Instances), in the cell's order.
func (c *Cell) instanceIDs() []*ast.Ident {
	ids := make([]*ast.Ident, 0, len(c.Types.Instances))
	for id := range c.Types.Instances {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
	return ids
}

// recopy declares again, from this cell's declaration, the copies that
// earlier cells made of a generic function this cell declares again.
func (c *Cell) recopy() {
	if c.Decls == nil || c.Session == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams == nil {
			continue
		}
		for _, cp := range c.Session.Copies() {
			if cp.Func == fd.Name.Name {
				c.instanceCopy(cp.Func, cp.TypeArgs, fd.Pos())
			}
		}
	}
}

// needsCopy reports whether a call of the cell's generic function name
// with the type arguments targs goes to a copy (see copyNeeds), or is
// better off in one (see converts): none of them is or mentions a type
// parameter, so they can be written in.
func (c *Cell) needsCopy(name string, targs *types.TypeList) bool {
	predeclared := true
	for i := range targs.Len() {
		t := targs.At(i)
		if hasTypeParam(t) {
			return false
		}
		if _, ok := types.Unalias(t).(*types.Basic); !ok {
			predeclared = false
		}
	}
	return !predeclared && c.copyNeeds(name, map[string]bool{}) || c.converts(name) || c.nestsInstances(name) || c.boxedParams(name, typeList(targs)) != nil ||
		c.mutualGenerics(name)
}

// mutualGenerics reports whether the cell's generic function name, or a
// generic function of the cell it calls, calls itself through another
// (r1 calls r2, which calls r1). yaegi v0.16.1 instantiates r2[int]
// while it instantiates r1[int] (interp/generic.go), and the instances
// lost what the other returned: r1[int](5), 5 * r2(4) with r2 summing
// 1..n and adding r1(n-1), gave 0 (Go: 110), silently. Copies with the
// type arguments written in call each other as plain functions, which
// run.
func (c *Cell) mutualGenerics(name string) bool {
	return c.genericReaches(name, map[string]bool{}, func(n ast.Node, _ map[string]bool) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		g, ok := c.genericCallee(call)
		return ok && c.genericCycle(g)
	})
}

// genericCycle reports whether the cell's generic function g calls
// itself through another generic function of the cell (see
// mutualGenerics), once asked.
func (c *Cell) genericCycle(g string) bool {
	if v, ok := c.cycles[g]; ok {
		return v
	}
	if c.cycles == nil {
		c.cycles = map[string]bool{}
	}
	c.cycles[g] = false // (while asked)
	calls := func(n ast.Node, to func(string) bool) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		h, ok := c.genericCallee(call)
		return ok && to(h)
	}
	found := false
	if fd := c.funcDecl(g); fd != nil && fd.Body != nil {
		seen := map[string]bool{g: true}
		found = contains(fd.Body, false, func(n ast.Node) bool {
			return calls(n, func(h string) bool {
				return h != g && c.genericReaches(h, seen, func(m ast.Node, _ map[string]bool) bool {
					return calls(m, func(k string) bool { return k == g })
				})
			})
		})
	}
	c.cycles[g] = found
	return found
}

// nestsInstances reports whether the cell's generic function name, or one
// it calls, writes an instance of a generic type with its type parameters
// among the type arguments of another (NewSet[Pair[K, V]]()). yaegi
// v0.16.1 compiles that in a statement as it compiles
// Set[Pair[int, int]]{} at top level, and fails the same way
// (interp/cfg.go:968, see instanceArgs); an alias of it cannot be
// declared, so the function is called as a copy, whose type arguments
// are written in and whose nested instances are aliases.
func (c *Cell) nestsInstances(name string) bool {
	return c.genericReaches(name, map[string]bool{}, func(n ast.Node, params map[string]bool) bool {
		for _, a := range indexArgs(n) {
			if _, ok := a.(*ast.IndexListExpr); ok && refersTo([]ast.Expr{a}, params) {
				return true
			}
		}
		return false
	})
}

// indexArgs are the index or the type arguments of an index expression,
// none for another node.
func indexArgs(n ast.Node) []ast.Expr {
	switch e := n.(type) {
	case *ast.IndexExpr:
		return []ast.Expr{e.Index}
	case *ast.IndexListExpr:
		return e.Indices
	}
	return nil
}

// aliasNested writes, in a copy of a generic function, each instance
// with two or more type arguments among the type arguments of another as
// an alias (see nestsInstances).
func (c *Cell) aliasNested(cp *ast.FuncDecl) {
	ast.Inspect(cp, func(n ast.Node) bool {
		args := indexArgs(n)
		for i, a := range args {
			if _, ok := a.(*ast.IndexListExpr); ok && c.packageLevel(a) {
				args[i] = ident(c.instanceAlias(a), a.Pos())
			}
		}
		if e, ok := n.(*ast.IndexExpr); ok && len(args) == 1 {
			e.Index = args[0]
		}
		return true
	})
}

// copyNeeds reports whether the cell's generic function name, or a
// generic function of the cell it calls, uses a type parameter as a
// value.
//
// yaegi v0.16.1 compiles an instance with each type parameter replaced by
// a node named by its type argument's id ("main.Nim",
// interp/generic.go:43), and where a type is used as a value it asks
// whether that name is a type in scope (interp/cfg.go:2544, isType),
// which only a predeclared type's is: a conversion T(x) that paramConv
// leaves (P(&x), P constrained to *T) is compiled as a call of a function
// that does not exist; a generic call Id(x) in a composite literal as one
// of the generic function itself (see padTypeParam). The instance fails,
// its error lost, and the call that asked for it panics (interp/cfg.go:1285). Such a function called with a
// type argument other than a predeclared type is called as a copy with the
// types written in (instanceCopy), where they name themselves.
func (c *Cell) copyNeeds(name string, seen map[string]bool) (values bool) {
	return c.genericReaches(name, seen, c.paramAsValue)
}

// usesParamsAsValues reports whether body uses one of the type parameters
// params as a value, itself or through a generic function of the cell it
// calls (seen: the functions already asked about).
func (c *Cell) usesParamsAsValues(body *ast.BlockStmt, params, seen map[string]bool) bool {
	return c.reaches(body, params, seen, c.paramAsValue)
}

// genericReaches reports whether found holds for a node of the cell's
// generic function name (given its type parameters), or of a generic
// function of the cell it calls, itself or through others (seen: the
// functions already asked about).
func (c *Cell) genericReaches(name string, seen map[string]bool, found func(n ast.Node, params map[string]bool) bool) bool {
	if seen[name] {
		return false
	}
	seen[name] = true
	fd := c.funcDecl(name)
	if fd == nil || fd.Type.TypeParams == nil || fd.Body == nil {
		return false
	}
	params := map[string]bool{}
	for _, n := range typeParamNames(fd.Type.TypeParams) {
		params[n] = true
	}
	return c.reaches(fd.Body, params, seen, found)
}

// reaches is genericReaches from body, the code of a function with the
// type parameters params.
func (c *Cell) reaches(body *ast.BlockStmt, params, seen map[string]bool, found func(n ast.Node, params map[string]bool) bool) bool {
	return contains(body, false, func(n ast.Node) bool {
		if found(n, params) {
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		g, ok := c.genericCallee(call)
		return ok && c.genericReaches(g, seen, found)
	})
}

// paramAsValue reports whether the node n uses one of the type
// parameters params as a value (see copyNeeds): a conversion T(x) that
// paramConv, which runs before, left as it is, or a call of a generic
// function of the cell as an element of a composite literal.
func (c *Cell) paramAsValue(n ast.Node, params map[string]bool) bool {
	switch x := n.(type) {
	case *ast.CallExpr:
		id, ok := ast.Unparen(x.Fun).(*ast.Ident)
		return ok && params[id.Name]
	case *ast.CompositeLit:
		for _, e := range x.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			if _, ok := c.genericCallee(e); ok {
				return true
			}
		}
	}
	return false
}

// genericCallee is the name of the cell's generic function e calls, if
// it calls one.
func (c *Cell) genericCallee(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return "", false
	}
	g, _ := indexed(call.Fun)
	if g == nil {
		g, _ = ast.Unparen(call.Fun).(*ast.Ident)
	}
	if g == nil {
		return "", false
	}
	gd := c.funcDecl(g.Name)
	return g.Name, gd != nil && gd.Type.TypeParams != nil
}

// typeParamNames are the names a type parameter list declares.
func typeParamNames(l *ast.FieldList) []string {
	var names []string
	for _, f := range l.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// indexed is the function and the type arguments of F[A, B], or nil.
func indexed(e ast.Expr) (*ast.Ident, []ast.Expr) {
	switch x := e.(type) {
	case *ast.IndexExpr:
		id, _ := x.X.(*ast.Ident)
		return id, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		id, _ := x.X.(*ast.Ident)
		return id, x.Indices
	}
	return nil, nil
}

// asOperand is the type t as it can stand where a type parameter stood,
// a conversion's function among others: (*T)(x), not *T(x).
func asOperand(t ast.Expr) ast.Expr {
	switch t.(type) {
	case *ast.StarExpr, *ast.FuncType, *ast.ChanType:
		return &ast.ParenExpr{Lparen: t.Pos(), X: t, Rparen: t.End()}
	}
	return t
}

var exprIface = reflect.TypeFor[ast.Expr]()

// replaceIdents replaces, in n, every identifier in an expression or type
// position named in subst (field and selector names are not expressions,
// so they stay).
func replaceIdents(n ast.Node, subst map[string]ast.Expr) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				if f.Type() == exprIface && !f.IsNil() {
					if id, ok := f.Interface().(*ast.Ident); ok {
						if r, ok := subst[id.Name]; ok && f.CanSet() {
							f.Set(reflect.ValueOf(r))
							continue
						}
					}
				}
				switch f.Interface().(type) {
				case *ast.Object, *ast.Scope:
					continue
				}
				switch f.Kind() {
				case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Struct:
					walk(f)
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				e := v.Index(i)
				if e.Type() == exprIface && !e.IsNil() {
					if id, ok := e.Interface().(*ast.Ident); ok {
						if r, ok := subst[id.Name]; ok {
							e.Set(reflect.ValueOf(r))
							continue
						}
					}
				}
				walk(e)
			}
		}
	}
	walk(reflect.ValueOf(n))
}
