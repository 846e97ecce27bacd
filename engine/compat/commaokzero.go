package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// commaOkZero: "v, ok = m[k]" and "v, ok = x.(T)" (or := in a loop, where
// each iteration reuses the variable's storage) on a missing key or a
// failed assertion leave v as it was. yaegi v0.16.1 sets the value only
// when the key is there (getIndexMap2, interp/run.go:1867: "if
// v.IsValid() { dest(f).Set(v) }") or the assertion holds (typeAssert,
// interp/run.go); Go sets it to its type's zero. After the assignment, v
// is set to the zero when ok is false:
//
//	v, ok = m[k]
//	if !ok { var _grundyZ1 T; v = _grundyZ1 }
//
// An if or switch whose init is such an assignment goes in a block with
// its init before it, unless it is "if v, ok := m[k]; ok { ... }" without
// an else, where v is only seen when it is right. A cell's top-level :=
// is declared afresh (commaOk) and needs nothing. The value may go to a
// field, an element or *p (s.N, s.OK = v.(int)), and ok may be one too,
// or the blank: "v, _ = x.(T)" gets a variable for ok, declared before it
// (as does "v, _ = <-ch", which yaegi crashed on: "reflect.Value.SetBool
// on interface Value").
var commaOkZero = Pass{
	Name:     "commaokzero",
	Run:      runCommaOkZero,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"comma_ok_missing_is_zero"},
}

func runCommaOkZero(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if cur.Index() < 0 || n.Tok == token.DEFINE && cur.TopLevel() && c.directlyTopLevel(cur) {
				return true
			}
			reset, decl := c.zeroUnlessOk(n)
			if decl != nil {
				cur.InsertBefore(decl)
			}
			if reset != nil {
				cur.InsertAfter(reset)
			}
		case *ast.IfStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && !onlyWhenOk(n, as) {
				c.hoistInit(cur, n, as, func() { n.Init = nil })
			}
		case *ast.SwitchStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok {
				c.hoistInit(cur, n, as, func() { n.Init = nil })
			}
		}
		return true
	})
}

// directlyTopLevel reports whether cur's node is one of the cell's
// top-level statements.
func (c *Cell) directlyTopLevel(cur Cursor) bool {
	for _, b := range c.TopLevel() {
		if cur.Parent() == b {
			return true
		}
	}
	return false
}

// hoistInit writes "if init; cond {...}", init a comma-ok assignment, as
// "{ init; reset; if cond {...} }", where the statement stands in a list
// or is an else branch.
func (c *Cell) hoistInit(cur Cursor, s ast.Stmt, as *ast.AssignStmt, dropInit func()) {
	_, isElse := cur.Parent().(*ast.IfStmt)
	if cur.Index() < 0 && !(isElse && cur.Name() == "Else") {
		return
	}
	reset, decl := c.zeroUnlessOk(as)
	if reset == nil && decl == nil {
		return
	}
	dropInit()
	list := []ast.Stmt{as}
	if decl != nil {
		list = []ast.Stmt{decl, as}
	}
	if reset != nil {
		list = append(list, reset)
	}
	cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: append(list, s), Rbrace: s.End()})
}

// zeroUnlessOk is "if !ok { var z T; v = z }" for "v, ok = m[k]" or
// "v, ok = x.(T)", nil for other statements or when T cannot be written.
// v may be a field, an element or *p as well as a variable, and ok a
// field or an element, when neither calls nor receives (each is read
// again). A blank ok assigned with = ("v, _ = x.(T)", and "v, _ = <-ch",
// which yaegi's receive crashed on: "reflect.Value.SetBool on interface
// Value") becomes a variable declared before the statement: decl is
// that declaration, to go first.
func (c *Cell) zeroUnlessOk(as *ast.AssignStmt) (reset, decl ast.Stmt) {
	if len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil, nil
	}
	recv := false
	switch x := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr:
		if _, isMap := typeUnder(c.Types.TypeOf(x.X)).(*types.Map); !isMap {
			return nil, nil
		}
	case *ast.TypeAssertExpr:
		if x.Type == nil {
			return nil, nil
		}
	case *ast.UnaryExpr:
		if x.Op != token.ARROW || as.Tok != token.ASSIGN || !isIdent(as.Lhs[1], "_") {
			return nil, nil
		}
		recv = true // (a receive sets its value: only its blank ok)
	default:
		return nil, nil
	}
	val, okx := as.Lhs[0], as.Lhs[1]
	if isIdent(val, "_") || !sideEffectFree(val) || !sideEffectFree(okx) {
		return nil, nil
	}
	pos := as.Pos()
	vt := c.Types.TypeOf(val)
	if id, ok := val.(*ast.Ident); ok {
		if obj := c.Types.ObjectOf(id); obj != nil {
			vt = obj.Type()
		}
	}
	if vt == nil {
		return nil, nil
	}
	t, ok := c.TypeExpr(vt, pos)
	if !ok {
		return nil, nil
	}
	if isIdent(okx, "_") {
		name := c.Temp("OKZ")
		if as.Tok == token.DEFINE {
			as.Lhs[1] = ident(name, okx.Pos())
		} else {
			decl = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{ident(name, pos)}, Type: ident("bool", pos)}}}}
			as.Lhs[1] = ident(name, okx.Pos())
		}
		okx = ident(name, pos)
	}
	if recv {
		return nil, decl
	}
	z := c.Temp("Z")
	return &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: copyExpr(okx)}, Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		&ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ident(z, pos)}, Type: t}}}},
		&ast.AssignStmt{Lhs: []ast.Expr{copyExpr(val)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(z, pos)}},
	}, Rbrace: pos}}, decl
}

// onlyWhenOk reports whether the variables of "if v, ok := ...; ok { ... }"
// (no else) are seen only when ok is true, where v is right: the memo
// idiom needs nothing.
func onlyWhenOk(s *ast.IfStmt, as *ast.AssignStmt) bool {
	return as.Tok == token.DEFINE && s.Else == nil && len(as.Lhs) == 2 && isIdent(s.Cond, identName(as.Lhs[1]))
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
		return id.Name
	}
	return ""
}

// copyExpr is a copy of e's syntax tree, to write it a second time.
func copyExpr(e ast.Expr) ast.Expr { return cloneNode(e, map[ast.Node]ast.Node{}).(ast.Expr) }
