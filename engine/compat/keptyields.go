package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// keepsYield reports whether this cell, or an earlier one, declares a
// function iterator that keeps its yield function beyond its own call,
// or that recovers a panic (see keptYield): then every range over a
// function iterator checks that yield is not called once its loop is
// over, and that a panic of its body did not end in the iterator, as Go's
// runtime does (see rangeFunc; without such an iterator only loops whose
// body can stop them check that yield is not called again, which costs
// nothing where the body cannot).
func (c *Cell) keepsYield() bool {
	if !c.keptDone {
		c.KeepsYield, c.keptDone = c.keptYield(), true
	}
	return c.KeepsYield || c.Session != nil && c.Session.KeepsYield()
}

// keptYield reports whether a function of the cell that is given a yield
// function defers a recover (it may stop a panic of its loop's body,
// where Go's runtime panics: rangeFunc), or keeps the yield function: a parameter of a function type with one bool result,
// named yield or the only parameter of a function without results (an
// iterator), that the function stores (saved = yield, s.f = yield, a
// composite, a return, a channel send), or that a function literal
// calls which is stored beyond the function or run by a go statement.
// Calls of it, and passing it to a helper, keep nothing.
func (c *Cell) keptYield() bool {
	kept := false
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if kept {
				return false
			}
			var ft *ast.FuncType
			var body *ast.BlockStmt
			switch f := n.(type) {
			case *ast.FuncDecl:
				ft, body = f.Type, f.Body
			case *ast.FuncLit:
				ft, body = f.Type, f.Body
			}
			if body == nil {
				return true
			}
			for _, p := range c.yieldParams(ft) {
				if c.yieldEscapes(p, body) || defersRecover(body) {
					kept = true
				}
			}
			return true
		})
	}
	return kept
}

// yieldParams are ft's parameters that may be an iterator's yield.
func (c *Cell) yieldParams(ft *ast.FuncType) []types.Object {
	var out []types.Object
	only := ft.Params.NumFields() == 1 && ft.Results.NumFields() == 0
	for _, f := range ft.Params.List {
		for _, name := range f.Names {
			obj := c.Types.ObjectOf(name)
			if obj == nil || !(only || name.Name == "yield") {
				continue
			}
			sig, ok := obj.Type().Underlying().(*types.Signature)
			if !ok || sig.Results().Len() != 1 {
				continue
			}
			if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				out = append(out, obj)
			}
		}
	}
	return out
}

// yieldEscapes reports whether body keeps p beyond its call (see
// keptYield).
func (c *Cell) yieldEscapes(p types.Object, body *ast.BlockStmt) bool {
	var stack []ast.Node
	escapes := false
	ast.Inspect(body, func(n ast.Node) bool {
		if escapes {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && c.Types.Uses[id] == p {
			escapes = c.keptUse(id, stack, body)
		}
		stack = append(stack, n)
		return true
	})
	return escapes
}

// keptUse reports whether the use id of a yield function, under the
// nodes of stack (outermost first) in body, keeps it.
func (c *Cell) keptUse(id *ast.Ident, stack []ast.Node, body *ast.BlockStmt) bool {
	parent := stack[len(stack)-1]
	if call, ok := parent.(*ast.CallExpr); ok {
		if call.Fun != id && !c.interpreted(call) {
			return true // a native function may keep it
		}
	} else if _, paren := parent.(*ast.ParenExpr); !paren {
		return true // stored, returned, sent, compared, ...
	}
	// A call of it, or passed on: kept if a function literal around the
	// use is.
	for i := len(stack) - 1; i > 0; i-- {
		switch n := stack[i].(type) {
		case *ast.GoStmt:
			return true
		case *ast.FuncLit:
			if !localFuncLit(c, n, stack[i-1], body) {
				return true
			}
		}
	}
	return false
}

// localFuncLit reports whether lit, under parent, is called at once or
// kept in a variable body declares (walk := func(...) {...}).
func localFuncLit(c *Cell, lit *ast.FuncLit, parent ast.Node, body *ast.BlockStmt) bool {
	inBody := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		if !ok {
			return false
		}
		obj := c.Types.ObjectOf(id)
		return obj != nil && obj.Pos() > body.Lbrace && obj.Pos() < body.Rbrace
	}
	switch n := parent.(type) {
	case *ast.CallExpr:
		return n.Fun == lit
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			return false
		}
		for _, l := range n.Lhs {
			if !inBody(l) {
				return false
			}
		}
		return true
	case *ast.ValueSpec:
		return true // a var declared in body
	}
	return false
}

// defersRecover reports whether body defers a function literal that
// calls recover (directly in body, not in a function literal of its own).
func defersRecover(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok && contains(lit.Body, true, isRecoverCall) {
				found = true
			}
		}
		return !found
	})
	return found
}
