package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// ifaceAsserts: x.(I), x of a native interface type (any, error...) and I
// an interface type the cell declares. yaegi v0.16.1 asserts to such an
// interface only values it stored with their types (interp/run.go:316,
// typeAssert looks for its valueInterface): a native value (errors.Join's
// error asserted to interface{ Unwrap() []error }) or a value of a cell
// type stored in any failed, or passed with a value that crashed at its
// first method call; a value of a struct type whose methods have pointer
// receivers passed, and then panicked in reflect.Set; a nil x panicked. The
// assertion answers nil first, then tries each cell struct type
// implementing I, says no to the cell struct types with some of I's methods
// that do not (naming the missing one in the panic), then tries a native
// interface with I's method set, then the interpreter's own, as
// typeSwitches does for its cases (ifaceTries). It runs before nilAsserts,
// which then leaves these assertions alone:
//
//	v, ok := func() (I, bool) { _grundyTS1 := x; if _grundyTS1 == nil { return nil, false }; if v, ok := _grundyTS1.(C1); ok { return v, true }; ...; return nil, false }()
var ifaceAsserts = Pass{
	Name:     "ifaceasserts",
	Run:      runIfaceAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"iface_assert_native_values", "iface_assert_boxed_to_native", "iface_assert_struct_to_native", "cell_iface_to_native_assert", "generic_instance_asserted_to_interface", "based_pointer_in_native_iface"},
}

func runIfaceAsserts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		var lhs int
		var rhs *ast.Expr
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				lhs, rhs = len(n.Lhs), &n.Rhs[0]
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 {
				lhs, rhs = len(n.Names), &n.Values[0]
			}
		case *ast.TypeAssertExpr:
			switch p := cur.Parent().(type) {
			case *ast.AssignStmt:
				if len(p.Rhs) == 1 && len(p.Lhs) == 2 {
					return true // the comma-ok form, at the statement
				}
			case *ast.ValueSpec:
				if len(p.Values) == 1 && len(p.Names) == 2 {
					return true
				}
			}
			if r := c.ifaceAssert(n, false); r != nil {
				cur.Replace(r)
				c.Types.Types[r] = c.Types.Types[n] // (for the passes after: fmtArgs prints it as an I)
			}
			return true
		}
		if rhs == nil || lhs != 2 {
			return true
		}
		if ta, ok := (*rhs).(*ast.TypeAssertExpr); ok {
			if r := c.ifaceAssert(ta, true); r != nil {
				*rhs = r
			}
		}
		return true
	})
}

// ifaceAssert is the assertion ta rewritten, or nil when yaegi's own
// serves (a type switch's guard has no type and is typeSwitches').
func (c *Cell) ifaceAssert(ta *ast.TypeAssertExpr, commaOk bool) ast.Expr {
	if ta.Type == nil {
		return nil
	}
	xt, tt := c.Types.TypeOf(ta.X), c.Types.TypeOf(ta.Type)
	if xt == nil || tt == nil || !types.IsInterface(xt) {
		return nil
	}
	if it, ok := tt.Underlying().(*types.Interface); !ok || it.Empty() {
		return nil
	}
	if _, param := tt.(*types.TypeParam); param {
		// x.(T) with T's constraint an interface: T is no interface (in
		// g[myint], return nil did not compile).
		return nil
	}
	pos := ta.Pos()
	fromCell := cellIfaceToNative(xt, tt)
	if cellTypeOrIfaceLit(xt) && !fromCell {
		return nil // yaegi's own, or nilAsserts'
	}
	if boxed, _ := c.boxedImplementers(nil, nil, tt, pos); !fromCell && !cellTypeOrIfaceLit(tt) && len(boxed) == 0 {
		return nil // a native interface no type in a box implements
	}
	tmpName := c.Temp("TS")
	tmp := func() *ast.Ident { return ident(tmpName, pos) }
	name := &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(reflectString(tt, false))}
	rt := func(fn string) ast.Expr {
		return &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(fn, pos)}
	}
	// As Go fails: false, or the panic "interface conversion: T is not I:
	// missing method M" (M found at run time when not given).
	val := func() ast.Expr {
		if fromCell {
			return anyOf(tmp(), pos)
		}
		return tmp()
	}
	fail := func(missing string) []ast.Stmt {
		if commaOk {
			return []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos), ident("false", pos)}}}
		}
		var call ast.Expr = &ast.CallExpr{Fun: rt(prelude.RTAssertPanic), Args: []ast.Expr{val(), name, methodNames(tt, pos)}}
		if missing != "" {
			call = &ast.CallExpr{Fun: ident("panic", pos), Args: []ast.Expr{&ast.CallExpr{Fun: rt(prelude.RTAssertionError),
				Args: []ast.Expr{val(), name, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(missing)}}}}}
		}
		return []ast.Stmt{&ast.ExprStmt{X: call}, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos)}}}
	}
	body := []ast.Stmt{define(pos, []ast.Expr{tmp()}, ta.X),
		// The interpreter's assertions of nil panic.
		ifThen(pos, &ast.BinaryExpr{X: tmp(), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}, fail("")...)}
	// A type in a box that lacks a method, said no to by its name: yaegi's
	// own assertion fails on it (see boxedOthers).
	var others []*types.Named
	var missing []string
	if !fromCell {
		others, missing = c.boxedOthers(tt)
	}
	for i, n := range others {
		body = append(body, ifThen(pos, c.boxedOther(tmp, xt, tt, n, pos), fail(missing[i])...))
	}
	body = append(body, c.ifaceTries(tmp, xt, ta.Type, tt, fail, commaOk, false)...)
	if stop := c.nativeMethods(tmp, tt, pos); stop != nil {
		body = append(body, &ast.ExprStmt{X: stop})
	}
	body = append(body, fail("")...)
	res := results(ta.Type)
	if commaOk {
		res = results(ta.Type, ident("bool", pos))
	}
	return called(funcLit(pos, ta.End(), res, body...))
}

// methodNames is []string{...}: the method names of the interface tt.
func methodNames(tt types.Type, pos token.Pos) ast.Expr {
	it := tt.Underlying().(*types.Interface)
	lit := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: ident("string", pos)}, Lbrace: pos, Rbrace: pos}
	for i := range it.NumMethods() {
		lit.Elts = append(lit.Elts, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(it.Method(i).Name())})
	}
	return lit
}
