package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// uintptrSteps: x++ and x-- on a uintptr become x += 1 and x -= 1.
// yaegi v0.16.1 builds inc and dec for the other integer kinds only
// (interp/op.go:2428 and 2484 switch on reflect.Uint..Uint64, without
// Uintptr), so the statement gets no code and the function it is in
// silently stops there: "var p uintptr; p--; fmt.Println(p)" printed
// nothing, and the rest of the cell (or of the function, which returned
// zero values) did not run. The same for a type on uintptr (type Addr
// uintptr), an element (ps[0]++), and a type parameter whose type set
// holds a uintptr. x op= 1 evaluates x once, as x++ does.
//
//	p--  =>  p -= 1
var uintptrSteps = Pass{
	Name:     "uintptrsteps",
	Run:      runUintptrSteps,
	Kinds:    []ast.Node{(*ast.IncDecStmt)(nil)},
	Snippets: []string{"uintptr_inc_dec"},
}

func runUintptrSteps(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if s, ok := cur.Node().(*ast.IncDecStmt); ok && holdsUintptr(c.Types.TypeOf(s.X)) {
			cur.Replace(step(s.X, s.Tok, s.TokPos, c.Types.TypeOf(s.X)))
		}
		return true
	})
}

// step is the statement that adds one to (tok token.INC) or takes one
// from x, of type t: x++ or x--, or x += 1 or x -= 1 where yaegi cannot
// step t (see uintptrSteps).
func step(x ast.Expr, tok token.Token, pos token.Pos, t types.Type) ast.Stmt {
	if !holdsUintptr(t) {
		return &ast.IncDecStmt{X: x, Tok: tok, TokPos: pos}
	}
	op := token.ADD_ASSIGN
	if tok == token.DEC {
		op = token.SUB_ASSIGN
	}
	return &ast.AssignStmt{Lhs: []ast.Expr{x}, Tok: op, TokPos: pos, Rhs: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "1"}}}
}

// holdsUintptr reports whether t is a uintptr, a type on one, or a type
// parameter that may be either.
func holdsUintptr(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := t.(*types.TypeParam); ok {
		return !typeSetAll(tp.Constraint(), func(b *types.Basic) bool { return b.Kind() != types.Uintptr })
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uintptr
}
