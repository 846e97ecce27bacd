package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// Assertions to a type parameter bound to a boxed cell type or to an
// empty interface: x.(T) in a generic function called as Get[Pos], Pos a
// cell type on an array or a basic type (type Pos [2]int, type Heap int),
// the way a helper takes a position back out of an any (PopAs[Pos](h)
// over heap.Pop), or as As[any]. yaegi v0.16.1 gives T the reflect type
// of Pos's underlying type inside the instance and asserts by
// assignability (interp/run.go:569), so its own x.(T) passed a [2]int for
// a Pos and a Pos for a [2]int; nilAsserts' check
// (grundyrt.AssertsExactly) compares reflect types, which tells a [2]int
// from the box a Pos is kept in, but cannot tell T = Pos from T = [2]int,
// so Get[Pos] failed where Go succeeds and basedTypes refused it. And its
// assertion to an empty interface says no to a value it did not box
// itself (interp/run.go:319): As[any]([2]int{3, 4}) was false. Such a
// call goes to a copy of the function with the type written in (needsCopy,
// instanceCopy), whose checks ask for the name the box carries
// (grundyrt.HasType, MustHaveType), as basedAsserts' checks of x.(Pos) do
// outside generic code, and whose assertions to an empty interface are
// the value itself, after nilAsserts' check for nil.

// boxedParams are the type parameters of the cell's generic function
// name, instantiated with targs, that a boxed cell type or an empty
// interface is bound to, when the function, or a generic function it
// calls, asserts to a type parameter (a call of it then goes to a copy:
// needsCopy, and in the copy, calls of those it calls); else nil.
func (c *Cell) boxedParams(name string, targs []types.Type) map[string]bool {
	fd := c.funcDecl(name)
	if fd == nil || fd.Type.TypeParams == nil || fd.Body == nil {
		return nil
	}
	bound := map[string]bool{}
	for i, p := range typeParamNames(fd.Type.TypeParams) {
		if i < len(targs) && targs[i] != nil && (boxedType(targs[i]) != nil || emptyIface(targs[i])) {
			bound[p] = true
		}
	}
	if len(bound) == 0 || !c.genericReaches(name, map[string]bool{}, paramAssert) {
		return nil
	}
	return bound
}

// paramAssert reports whether n is x.(T), T one of params.
func paramAssert(n ast.Node, params map[string]bool) bool {
	ta, ok := n.(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil {
		return false
	}
	id, ok := ta.Type.(*ast.Ident)
	return ok && params[id.Name]
}

// boxedParamChecks rewrites, in cp, a copy of a generic function being
// made with the type arguments of its type parameters written in (before
// they are), the assertions to a type parameter bound to a boxed cell
// type (boxed: its name as the printer knows it) or to an empty interface
// (empty). nilAsserts' checks of the first become checks by name:
//
//	var _grundyNZ T; grundyrt.MustAssertExactly(x, &_grundyNZ, "interface {}")
//	=> var _grundyNZ T; grundyrt.MustHaveType(x, "main.Pos", "interface {}")
//	!grundyrt.AssertsExactly(x, &_grundyNZ)  =>  !grundyrt.HasType(x, "main.Pos")
//
// and the second are the value (nilAsserts answered for nil before):
//
//	_grundyNV, _grundyOK := _grundyNA.(T)  =>  _grundyNV, _grundyOK := _grundyNA, true
//	return _grundyNA.(T)                   =>  return _grundyNA
func boxedParamChecks(cp *ast.FuncDecl, boxed map[string]string, empty map[string]bool) {
	if cp.Body == nil {
		return
	}
	// The copy's assertion is to the type argument written in, which
	// asserts a box as such: the value stays in it, and paramCheck's
	// checks are written back as they were before they gave it out,
	//
	//	if _grundyNU := grundyrt.MustAssertParam(x, &_grundyNZ, iface, sample); ... { ... }
	//	=> grundyrt.MustAssertExactly(x, &_grundyNZ, iface)
	//	if _grundyNU, _grundyOK := grundyrt.AssertsParam(x, &_grundyNZ, sample); !_grundyOK { return _grundyNZ, false } else ...
	//	=> if !grundyrt.AssertsExactly(x, &_grundyNZ) { return _grundyNZ, false }
	ast.Inspect(cp.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok {
			for i, st := range b.List {
				is, call := unboxedCall(st)
				switch {
				case call == nil || len(call.Args) < 2:
				case isRTCall(call, prelude.RTMustAssertParam) && len(call.Args) == 4:
					b.List[i] = &ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTMustAssertExactly, call.Pos()), Lparen: call.Lparen,
						Args: call.Args[:3], Rparen: call.Rparen}}
				case isRTCall(call, prelude.RTAssertsParam):
					check := &ast.CallExpr{Fun: rtSelector(prelude.RTAssertsExactly, call.Pos()), Lparen: call.Lparen, Args: call.Args[:2], Rparen: call.Rparen}
					b.List[i] = ifThen(is.Pos(), &ast.UnaryExpr{OpPos: is.Pos(), Op: token.NOT, X: check}, is.Body.List...)
				}
			}
		}
		return true
	})
	if len(empty) > 0 {
		applyIn(cp.Body, func(cur Cursor) bool {
			switch n := cur.Node().(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == 2 && len(n.Rhs) == 1 && paramAssert(n.Rhs[0], empty) {
					n.Rhs = valueAndTrue(n.Rhs[0])
				}
			case *ast.ValueSpec:
				if len(n.Names) == 2 && len(n.Values) == 1 && paramAssert(n.Values[0], empty) {
					n.Values = valueAndTrue(n.Values[0])
				}
			case *ast.TypeAssertExpr:
				if paramAssert(n, empty) && !commaOkParent(cur) {
					cur.Replace(n.X)
				}
			}
			return true
		})
	}
	if len(boxed) == 0 {
		return
	}
	ast.Inspect(cp.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		var name string // the boxed type the block's zero value is of
		for _, st := range b.List {
			if t, ok := zeroVarType(st); ok {
				name = boxed[t]
				continue
			}
			if name == "" {
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) < 2 || !isZeroAddr(call.Args[1]) {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !isIdent(sel.X, prelude.Runtime) {
					return true
				}
				lit := &ast.BasicLit{ValuePos: call.Args[1].Pos(), Kind: token.STRING, Value: strconv.Quote(name)}
				switch sel.Sel.Name {
				case prelude.RTAssertsExactly:
					sel.Sel = ident(prelude.RTHasType, sel.Sel.Pos())
					call.Args = []ast.Expr{call.Args[0], lit}
				case prelude.RTMustAssertExactly, prelude.RTMustAssertParam:
					sel.Sel = ident(prelude.RTMustHaveType, sel.Sel.Pos())
					call.Args = []ast.Expr{call.Args[0], lit, call.Args[2]}
				}
				return true
			})
		}
		return true
	})
}

// unboxedCall is the if statement of paramCheck that calls the runtime
// in its init (_grundyNU[, _grundyOK] := grundyrt...), and that call.
func unboxedCall(st ast.Stmt) (*ast.IfStmt, *ast.CallExpr) {
	is, ok := st.(*ast.IfStmt)
	if !ok || is.Init == nil {
		return nil, nil
	}
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 || !isIdent(as.Lhs[0], tempPrefix+"NU") {
		return nil, nil
	}
	call, _ := as.Rhs[0].(*ast.CallExpr)
	return is, call
}

// valueAndTrue is x, true for the assertion x.(T).
func valueAndTrue(e ast.Expr) []ast.Expr {
	return []ast.Expr{e.(*ast.TypeAssertExpr).X, ident("true", e.Pos())}
}

// zeroVarType is T of paramCheck's "var _grundyNZ T".
func zeroVarType(st ast.Stmt) (string, bool) {
	ds, ok := st.(*ast.DeclStmt)
	if !ok {
		return "", false
	}
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
		return "", false
	}
	vs, ok := gd.Specs[0].(*ast.ValueSpec)
	if !ok || len(vs.Names) != 1 || vs.Names[0].Name != tempPrefix+"NZ" {
		return "", false
	}
	id, ok := vs.Type.(*ast.Ident)
	if !ok {
		return "", false
	}
	return id.Name, true
}

// isZeroAddr reports whether e is &_grundyNZ.
func isZeroAddr(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	return ok && u.Op == token.AND && isIdent(u.X, tempPrefix+"NZ")
}

// writtenTypes are the types of type arguments written as source (in a
// copy), nil where unknown: a boxed cell type is written as its name.
func (c *Cell) writtenTypes(targs []ast.Expr) []types.Type {
	out := make([]types.Type, len(targs))
	for i, t := range targs {
		if it, ok := t.(*ast.InterfaceType); ok && (it.Methods == nil || len(it.Methods.List) == 0) {
			out[i] = types.NewInterfaceType(nil, nil)
			continue
		}
		id, ok := t.(*ast.Ident)
		if !ok {
			continue
		}
		obj := c.topLevel(id.Name)
		if obj == nil {
			obj = types.Universe.Lookup(id.Name)
		}
		if tn, ok := obj.(*types.TypeName); ok {
			out[i] = tn.Type()
		}
	}
	return out
}

// boxedTypeArgs maps the type parameters of the cell's generic function
// fd whose type arguments (targs, as written in a copy) are boxed cell
// types to the names the printer knows those types by, and tells those
// that are empty interfaces.
func (c *Cell) boxedTypeArgs(fd *ast.FuncDecl, targs []ast.Expr) (boxed map[string]string, empty map[string]bool) {
	boxed, empty = map[string]string{}, map[string]bool{}
	ts := c.writtenTypes(targs)
	for i, p := range typeParamNames(fd.Type.TypeParams) {
		if i >= len(ts) || ts[i] == nil {
			continue
		}
		if n := boxedType(ts[i]); n != nil {
			boxed[p] = reflectString(n, false)
		} else if emptyIface(ts[i]) {
			empty[p] = true
		}
	}
	return boxed, empty
}
