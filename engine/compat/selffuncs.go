package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// selfFuncs: a function type that refers to itself, type stateFn
// func(*lexer) stateFn (Rob Pike's state functions), type Thunk func()
// (int, Thunk) (a trampoline), type RecFunc func(RecFunc) Func (the Y
// combinator). yaegi v0.16.1 builds a reflect type for each type, and
// reflect cannot make a function type that contains itself (see
// selfTypes, which refused it). A named struct breaks the cycle, so the
// type is declared as a struct holding the function,
//
//	type stateFn struct{ _grundyFn func(*lexer) stateFn }
//
// and its uses are written for it, in the cell that declares it and in
// later ones (the oracle's types say where): a call s(l) is
// s._grundyFn(l); a function value or nil given a stateFn's place
// (assigned, returned, passed, converted: stateFn(lexText)) is
// stateFn{lexText} or stateFn{}; s == nil is s._grundyFn == nil; a
// stateFn given the place of its underlying function type is
// s._grundyFn. A type declared in a function, or a generic one, is
// refused as before.
var selfFuncs = Pass{
	Name:     "selffuncs",
	Run:      runSelfFuncs,
	Kinds:    append([]ast.Node{(*ast.TypeSpec)(nil), (*ast.BinaryExpr)(nil)}, assignedKinds...),
	Snippets: []string{"recursive_func_types"},
}

// selfFuncField is the field holding the function.
const selfFuncField = prelude.Temp + "Fn"

// IsSelfFunc reports whether t is a function type selfFuncs declares as
// a struct (see selfFunc).
func IsSelfFunc(t types.Type) bool { return selfFunc(t) }

// selfFunc reports whether t is a function type selfFuncs declares as a
// struct: declared at a cell's top level, not generic, referring to
// itself.
func selfFunc(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0 || !typecheck.IsCellType(n) {
		return false
	}
	if _, ok := n.Underlying().(*types.Signature); !ok {
		return false
	}
	obj := n.Obj()
	if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	if !reachesSelf(n.Underlying(), n, map[types.Type]bool{}) {
		return false
	}
	// A struct of the cell's in its signature that refers to itself or
	// back to the function type (func(*Tree) Visitor with
	// Tree{ Kids []*Tree }; a lexer holding a *stateFn) makes yaegi build
	// the struct holding the function without end, as it does the same
	// struct written by hand (a stack overflow that ends the process):
	// refused as before (selfTypes).
	tangled := reaches(n.Underlying(), func(m *types.Named) bool {
		st, ok := m.Underlying().(*types.Struct)
		return ok && typecheck.IsCellType(m) && reaches(st, func(k *types.Named) bool { return k == n || k == m }, map[types.Type]bool{})
	}, map[types.Type]bool{})
	return !tangled
}

func runSelfFuncs(c *Cell) {
	if !c.usesSelfFuncs() {
		return
	}
	// The new nodes have their types for the passes after: the wrapped
	// function type's (fmt's %T names it), the function's.
	field := func(x ast.Expr) ast.Expr {
		sel := &ast.SelectorExpr{X: x, Sel: ident(selfFuncField, x.End())}
		if t := c.Types.TypeOf(x); t != nil {
			c.Types.Types[sel] = types.TypeAndValue{Type: t.Underlying()}
		}
		return sel
	}
	// wrap is v given the place of a value of t.
	wrap := func(v ast.Expr, t types.Type) ast.Expr {
		vt := c.Types.TypeOf(v)
		switch {
		case selfFunc(t) && !selfFunc(vt) && (isNil(c, v) || isSignature(vt)):
			tx, ok := c.TypeExpr(t, v.Pos())
			if !ok {
				return nil
			}
			lit := &ast.CompositeLit{Type: tx, Lbrace: v.Pos(), Rbrace: v.End()}
			if !isNil(c, v) {
				lit.Elts = []ast.Expr{v}
			}
			c.Types.Types[lit] = types.TypeAndValue{Type: t}
			return lit
		case selfFunc(vt) && isSignature(t):
			return field(v)
		}
		return nil
	}
	c.Apply(func(cur Cursor) bool {
		if as, ok := cur.Node().(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			// c = func(...) Cont { ...; return c }: the function goes into
			// the variable's struct in place (c._grundyFn = ...): a
			// closure the interpreter made before the assignment holds
			// the variable's old struct, and returned nil.
			if id, ok := as.Lhs[0].(*ast.Ident); ok && selfFunc(c.Types.TypeOf(id)) {
				if rt := c.Types.TypeOf(as.Rhs[0]); isNil(c, as.Rhs[0]) || isSignature(rt) {
					as.Lhs[0] = field(id)
					return true
				}
			}
		}
		for _, v := range c.assignedValues(cur, nil) {
			if w := wrap(v.value, v.target); w != nil {
				v.set(w)
			}
		}
		switch n := cur.Node().(type) {
		case *ast.TypeSpec:
			if tn, ok := c.Types.Defs[n.Name].(*types.TypeName); ok && !tn.IsAlias() && selfFunc(tn.Type()) {
				pos := n.Type.Pos()
				n.Type = &ast.StructType{Struct: pos, Fields: &ast.FieldList{Opening: pos, Closing: n.Type.End(),
					List: []*ast.Field{{Names: []*ast.Ident{ident(selfFuncField, pos)}, Type: n.Type}}}}
			}
		case *ast.CallExpr:
			if c.Types.IsType(n.Fun) && len(n.Args) == 1 {
				// F(v), (func(...))(s)
				if w := wrap(n.Args[0], c.Types.TypeOf(n.Fun)); w != nil {
					cur.Replace(w)
				} else if selfFunc(c.Types.TypeOf(n.Fun)) && selfFunc(c.Types.TypeOf(n.Args[0])) {
					cur.Replace(n.Args[0])
				}
			} else if selfFunc(c.Types.TypeOf(n.Fun)) {
				n.Fun = field(n.Fun)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if selfFunc(c.Types.TypeOf(n.X)) && isNil(c, n.Y) {
					n.X = field(n.X)
				} else if selfFunc(c.Types.TypeOf(n.Y)) && isNil(c, n.X) {
					n.Y = field(n.Y)
				}
			}
		}
		return true
	})
}

// usesSelfFuncs reports whether a type of the cell's expressions or
// declarations is, or mentions, one selfFuncs declares as a struct (a
// later cell's play(n, alice) mentions Turn only in play's signature).
func (c *Cell) usesSelfFuncs() bool {
	known := map[*types.Named]bool{}
	match := func(n *types.Named) bool {
		is, ok := known[n]
		if !ok {
			is = selfFunc(n)
			known[n] = is
		}
		return is
	}
	seen := map[types.Type]bool{}
	for _, tv := range c.Types.Types {
		if tv.Type != nil && reaches(tv.Type, match, seen) {
			return true
		}
	}
	for _, obj := range c.Types.Defs {
		if tn, ok := obj.(*types.TypeName); ok && selfFunc(tn.Type()) {
			return true
		}
	}
	return false
}

func isSignature(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Signature)
	return ok
}
