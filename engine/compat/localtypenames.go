package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude/grundyrt"
)

// localTypeNames: struct types declared in functions (or in blocks of a
// cell's statements) are declared at package level under names of their
// own. yaegi v0.16.1 makes a local struct type the struct it is
// (interp/cfg.go, typeSpec) and structNames tags it with its name, so two
// local types of one name and one structure (type P struct{ X int } in
// mk and in mk2, or beside a top-level P of a later cell) were one
// reflect type: == of two in interfaces was true, an assertion of one to
// the other and a type switch took one for the other, and a map keyed by
// any merged them, silently. And yaegi keys a generic function's
// instances by its type arguments' strings (interp/generic.go, genAST),
// which for a local struct type is its fields' (struct { a int; b int }),
// so a generic call with one (slices.Contains(rows, r)) after a call with
// another local type of those fields reused that one's instance and
// panicked in reflect.Set. At package level, as _grundyLocal<pos>_P, the
// type is named by its name (main._grundyLocal<pos>_P, in its tag too);
// the printer names it main.P, as Go does (grundyrt's localTypeName). A
// type whose declaration uses a name of its function (a type parameter,
// a constant, another local type that stays), and one a struct embeds
// (whose field has its name), stays where it is. It runs
// before the passes that write types (the oracle writes the new name:
// RenameType).
var localTypeNames = Pass{
	Name:     "localtypenames",
	Run:      runLocalTypeNames,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"local_types_of_one_name"},
}

func runLocalTypeNames(c *Cell) {
	locals, order := c.hoistedLocals()
	if len(locals) == 0 {
		return
	}
	fresh := map[types.Object]string{}
	for _, tn := range order {
		if _, ok := locals[tn]; !ok {
			continue
		}
		name := grundyrt.LocalType + strconv.Itoa(int(tn.Pos())) + "_" + tn.Name()
		fresh[tn] = name
		c.Types.RenameType(tn, name)
		if c.renamed == nil {
			c.renamed = map[string]string{}
		}
		c.renamed[name] = tn.Name()
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if name, ok := fresh[c.Types.ObjectOf(id)]; ok {
					id.Name = name
				}
			}
			return true
		})
	}
	var specs []ast.Spec
	for _, tn := range order {
		l, ok := locals[tn]
		if !ok {
			continue
		}
		for i, s := range l.decl.Specs {
			if s == l.spec {
				l.decl.Specs = append(l.decl.Specs[:i:i], l.decl.Specs[i+1:]...)
				break
			}
		}
		specs = append(specs, l.spec)
	}
	// The declarations left without types go.
	c.Apply(func(cur Cursor) bool {
		if ds, ok := cur.Node().(*ast.DeclStmt); ok && cur.Index() >= 0 {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE && len(gd.Specs) == 0 {
				cur.Delete()
			}
		}
		return true
	})
	if c.Decls == nil {
		pos := c.Stmts.Lbrace
		c.Decls = &ast.File{Package: pos, Name: &ast.Ident{Name: "main", NamePos: pos}}
	}
	c.Decls.Decls = append(c.Decls.Decls, &ast.GenDecl{TokPos: specs[0].Pos(), Tok: token.TYPE, Specs: specs})
}

// localDecl is a type's declaration in a function.
type localDecl struct {
	spec *ast.TypeSpec
	decl *ast.GenDecl
}

// hoistedLocals are the struct types declared in functions (or blocks)
// that localTypeNames declares at package level, in the cell's order:
// those whose declarations name only package-level things and each other.
func (c *Cell) hoistedLocals() (map[*types.TypeName]localDecl, []*types.TypeName) {
	locals := map[*types.TypeName]localDecl{}
	var order []*types.TypeName
	for _, root := range c.Roots() {
		c.localStructTypes(root, func(tn *types.TypeName, ts *ast.TypeSpec, gd *ast.GenDecl) {
			locals[tn] = localDecl{ts, gd}
			order = append(order, tn)
		})
	}
	// An embedded one keeps its name, the field's (y.Xl of a struct
	// embedding Xl).
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok && len(f.Names) == 0 {
				x := f.Type
				if st, ok := x.(*ast.StarExpr); ok {
					x = st.X
				}
				if id, ok := x.(*ast.Ident); ok {
					if tn, ok := c.Types.Uses[id].(*types.TypeName); ok {
						delete(locals, tn)
					}
				}
			}
			return true
		})
	}
	for changed := len(locals) > 0; changed; {
		changed = false
		for tn, l := range locals {
			if !c.namesOnly(l.spec.Type, func(o types.Object) bool {
				if t, ok := o.(*types.TypeName); ok {
					if _, isLocal := locals[t]; isLocal {
						return true
					}
				}
				return o.Pkg() == nil || o.Parent() == o.Pkg().Scope() || o.Parent() == types.Universe
			}) {
				delete(locals, tn)
				changed = true
			}
		}
	}
	return locals, order
}

// localStructTypes calls f on each struct type declared in a function
// (or a block) under root, with its declaration.
func (c *Cell) localStructTypes(root ast.Node, f func(*types.TypeName, *ast.TypeSpec, *ast.GenDecl)) {
	ast.Inspect(root, func(n ast.Node) bool {
		ds, ok := n.(*ast.DeclStmt)
		if !ok {
			return true
		}
		gd, ok := ds.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			return true
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Assign.IsValid() || ts.TypeParams != nil {
				continue
			}
			tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
			if !ok || tn.Pkg() == nil || tn.Parent() == tn.Pkg().Scope() {
				continue
			}
			if _, isStruct := tn.Type().Underlying().(*types.Struct); isStruct {
				f(tn, ts, gd)
			}
		}
		return true
	})
}

// namesOnly reports whether every identifier in x that names an object
// names one ok accepts.
func (c *Cell) namesOnly(x ast.Expr, ok func(types.Object) bool) bool {
	all := true
	ast.Inspect(x, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if o := c.Types.Uses[id]; o != nil && !ok(o) {
				all = false
			}
		}
		return all
	})
	return all
}
