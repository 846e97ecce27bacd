package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
)

// namedResults: a function's named results start at their zero values.
// yaegi v0.16.1 gives the called function, as the places of its results,
// the places where the caller stores them (interp/run.go:1345, "Init
// return values"): the variable of "x = f()", or the temporary of a call
// site, which keeps the previous call's result. A named result is that
// place, so it starts at x's value, or at what the same call returned
// the last time it ran (s += n; return in a loop counted on). Each body
// with named results begins by zeroing them:
//
//	func f(n int) (s int, err error, p P) { s = 0; err = nil; p = *new(P); ... }
//
// A body that begins by assigning every named result from values that do
// not read them (lo, hi = xs[0], xs[0]) and defers nothing needs no zeroing, and gets none: a
// call costs one assignment more. A blank result (_ int) gets a hidden name, to be zeroed too.
//
// For the same reason "return b, a" assigns a before it reads it, and
// "return P{p.Y, p.X}" builds the value in p as it reads p: a return's
// values that read a named result (other than the result itself in its
// own place) are bound first:
//
//	{ _grundyR1, _grundyR2 := b, a; return _grundyR1, _grundyR2 }
var namedResults = Pass{
	Name:     "namedresults",
	Run:      runNamedResults,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)},
	Snippets: []string{"named_result_reassigned_variable", "named_result_call_in_loop", "named_result_read_by_return"},
}

func runNamedResults(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if ret, ok := cur.Node().(*ast.ReturnStmt); ok && cur.Func != nil {
			if b := c.boundReturn(ret, cur.Func); b != nil {
				cur.Replace(b)
			}
		}
		return true
	})
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch f := n.(type) {
			case *ast.FuncDecl:
				c.zeroResults(f.Type, f.Body)
			case *ast.FuncLit:
				c.zeroResults(f.Type, f.Body)
			}
			return true
		})
	}
}

// zeroResults puts "r1, r2 = *new(T1), *new(T2)" first in body for the
// named results of ft.
func (c *Cell) zeroResults(ft *ast.FuncType, body *ast.BlockStmt) {
	if body == nil || ft.Results == nil {
		return
	}
	pos := body.Lbrace
	var lhs []ast.Expr
	var zero []ast.Stmt
	for _, field := range ft.Results.List {
		for _, name := range field.Names {
			if name.Name == "_" {
				// Named, to be zeroed: a bare return gave what the
				// call returned the last time it ran (c160).
				name.Name = c.Temp("BR")
			}
			z := c.cheapZero(name)
			if z == nil {
				t, err := parser.ParseExpr(ExprString(field.Type))
				if err != nil {
					return
				}
				var typ types.Type
				if obj := c.Types.ObjectOf(name); obj != nil {
					typ = obj.Type()
				}
				z = c.zeroOf(typ, AtPos(t, pos), pos)
			}
			lhs = append(lhs, ident(name.Name, pos))
			zero = append(zero, &ast.AssignStmt{Lhs: []ast.Expr{ident(name.Name, pos)}, Tok: token.ASSIGN, TokPos: pos, Rhs: []ast.Expr{z}})
		}
	}
	if len(lhs) == 0 || assignsFirst(body, lhs) {
		return
	}
	body.List = append(zero, body.List...)
}

// cheapZero is the zero value of the result name as a constant or nil
// (one assignment each, an untyped nil being refused in a tuple), nil
// when its type needs *new(T).
func (c *Cell) cheapZero(name *ast.Ident) ast.Expr {
	obj := c.Types.ObjectOf(name)
	if obj == nil {
		return nil
	}
	pos := name.Pos()
	switch u := obj.Type().Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return ident("false", pos)
		case u.Info()&types.IsString != 0:
			return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: `""`}
		case u.Info()&types.IsNumeric != 0:
			return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		if _, tp := obj.Type().(*types.TypeParam); !tp {
			return ident("nil", pos)
		}
	}
	return nil
}

// boundReturn is ret with its values that read a named result of ft bound
// first, nil when none does.
func (c *Cell) boundReturn(ret *ast.ReturnStmt, ft *ast.FuncType) ast.Stmt {
	if ft.Results == nil {
		return nil
	}
	var names []string
	for _, field := range ft.Results.List {
		for _, name := range field.Names {
			names = append(names, name.Name)
		}
	}
	if len(names) == 0 || len(ret.Results) != len(names) {
		return nil
	}
	pos := ret.Pos()
	var lhs, rhs []ast.Expr
	for i, e := range ret.Results {
		if isIdent(e, names[i]) {
			continue
		}
		reads := contains(e, false, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			return ok && slices.Contains(names, id.Name) && id.Name != "_"
		})
		if !reads {
			continue
		}
		t := c.Temp("R")
		lhs, rhs = append(lhs, ident(t, pos)), append(rhs, e)
		ret.Results[i] = ident(t, e.Pos())
	}
	if len(lhs) == 0 {
		return nil
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{define(pos, lhs, rhs...), ret}, Rbrace: ret.End()}
}

// assignsFirst reports whether body's first statement is "names = values"
// with every name of results on the left and none read on the right, in a
// body that defers nothing.
func assignsFirst(body *ast.BlockStmt, results []ast.Expr) bool {
	if len(body.List) == 0 || contains(body, true, func(n ast.Node) bool { _, d := n.(*ast.DeferStmt); return d }) {
		// A deferred recover could return the results if the values panic.
		return false
	}
	as, ok := body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	var names []string
	for _, r := range results {
		names = append(names, r.(*ast.Ident).Name)
	}
	for _, name := range names {
		if !slices.ContainsFunc(as.Lhs, func(l ast.Expr) bool { return isIdent(l, name) }) {
			return false
		}
	}
	for _, r := range as.Rhs {
		if contains(r, false, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			return ok && slices.Contains(names, id.Name)
		}) {
			return false
		}
	}
	return true
}
