package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// localAliases: a type alias declared in a function or a block (func f()
// { type N = int; var n N }). yaegi v0.16.1 declares no such alias: a use
// of it failed to compile ("undefined: N"; in a generic function, "the
// interpreter cannot compile this"). An alias is only another name, so
// the declaration goes and each use is written as the type it stands
// for, as the declaration wrote it:
//
//	type P = Point; p := P{1, 2}  =>  p := Point{1, 2}
var localAliases = Pass{
	Name:     "localaliases",
	Run:      runLocalAliases,
	Kinds:    []ast.Node{(*ast.DeclStmt)(nil)},
	Snippets: []string{"local_type_aliases"},
}

func runLocalAliases(c *Cell) {
	aliases := map[types.Object]*ast.TypeSpec{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if ds, ok := n.(*ast.DeclStmt); ok {
				for _, ts := range localAliasSpecs(ds) {
					if obj := c.Types.Defs[ts.Name]; obj != nil {
						aliases[obj] = ts
					}
				}
			}
			return true
		})
	}
	if len(aliases) == 0 {
		return
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.Ident:
			ts := aliases[c.Types.ObjectOf(n)]
			if ts == nil || c.Types.Defs[n] != nil {
				return true
			}
			// (Uses come after the declaration, whose type, visited
			// first, has the aliases in it written out already.)
			tx := c.typedClone(ts.Type, n.Pos())
			if _, isCall := cur.Parent().(*ast.CallExpr); isCall && cur.Name() == "Fun" && needsParens(tx) {
				tx = &ast.ParenExpr{Lparen: n.Pos(), X: tx, Rparen: n.End()} // (*T)(x)
			}
			cur.Replace(tx)
		case *ast.DeclStmt:
			specs := localAliasSpecs(n)
			if len(specs) == 0 {
				return true
			}
			gd := n.Decl.(*ast.GenDecl)
			var keep []ast.Spec
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); !ts.Assign.IsValid() {
					keep = append(keep, sp)
				}
			}
			if len(keep) > 0 {
				gd.Specs = keep
			} else {
				cur.Replace(&ast.EmptyStmt{Semicolon: n.Pos(), Implicit: true})
			}
		}
		return true
	})
}

// localAliasSpecs are the alias declarations of ds, a declaration in a
// function or a block.
func localAliasSpecs(ds *ast.DeclStmt) []*ast.TypeSpec {
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE {
		return nil
	}
	var out []*ast.TypeSpec
	for _, sp := range gd.Specs {
		if ts := sp.(*ast.TypeSpec); ts.Assign.IsValid() {
			out = append(out, ts)
		}
	}
	return out
}

// typedClone is a copy of the type expression x at pos, each of its
// nodes typed as the oracle typed x's (for the passes after).
func (c *Cell) typedClone(x ast.Expr, pos token.Pos) ast.Expr {
	made := map[ast.Node]ast.Node{}
	out := AtPos(cloneNode(x, made).(ast.Expr), pos)
	for from, to := range made {
		if e, ok := from.(ast.Expr); ok {
			if tv, ok := c.Types.Types[e]; ok {
				c.Types.Types[to.(ast.Expr)] = tv
			}
		}
		if id, ok := from.(*ast.Ident); ok {
			if obj := c.Types.Uses[id]; obj != nil {
				c.Types.Uses[to.(*ast.Ident)] = obj
			}
			if inst, ok := c.Types.Instances[id]; ok {
				c.Types.Instances[to.(*ast.Ident)] = inst
			}
		}
	}
	return out
}

// needsParens reports whether the type t must be parenthesized to be
// converted to ((*T)(x), (func())(x), (<-chan int)(x)); yaegi v0.16.1
// did not find a generic instance converted to in parentheses
// ((Vec[int])(r): "type not found: Vec[int]").
func needsParens(t ast.Expr) bool {
	switch t.(type) {
	case *ast.StarExpr, *ast.FuncType, *ast.ChanType:
		return true
	}
	return false
}
