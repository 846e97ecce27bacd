package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// instanceOrder: a type declaration of a cell that names an instance of
// another package's generic type (iter.Seq[P], atomic.Pointer[P],
// unique.Handle[P]) with a type the cell declares later (type P int) is
// moved after that type's declaration. yaegi v0.16.1 instantiates the
// other package's type while P is still undeclared and gives it a
// placeholder for P that the later declaration of a type on a non-struct
// type does not complete: P's methods were then lost (fmt printed 3 for a
// P whose String gives "pos3") or a direct call panicked "index out of
// range [1] with length 0", silently. Go does not care in which order a
// package declares its types; declared first, P is complete when the
// instance is made.
var instanceOrder = Pass{
	Name:     "instanceorder",
	Run:      runInstanceOrder,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"std_instance_of_later_type"},
}

func runInstanceOrder(c *Cell) {
	if c.Decls == nil {
		return
	}
	// where is the position, among the cell's type specs, of the spec
	// declaring each of the cell's types.
	specs := c.typeSpecs()
	where := map[types.Object]int{}
	for i, ts := range specs {
		if obj := c.Types.Defs[ts.Name]; obj != nil {
			where[obj] = i
		}
	}
	// after[i] is the last spec that spec i must follow.
	after := make([]int, len(specs))
	moved := false
	for i, ts := range specs {
		after[i] = -1
		ast.Inspect(ts.Type, func(n ast.Node) bool {
			args := indexArgs(n)
			if len(args) == 0 {
				return true
			}
			if _, foreign := unindex(n.(ast.Expr)).(*ast.SelectorExpr); !foreign {
				return true
			}
			for _, a := range args {
				ast.Inspect(a, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						if j, ok := where[c.Types.Uses[id]]; ok && j > i && j > after[i] {
							after[i] = j
							moved = true
						}
					}
					return true
				})
			}
			return true
		})
	}
	if !moved {
		return
	}
	// Each type spec becomes a declaration of its own (a group cannot be
	// split otherwise), in the order of the cell with each moved spec
	// right after the last spec it follows (and the specs moved after it).
	var out []ast.Decl
	var place func(i int)
	placed := make([]bool, len(specs))
	place = func(i int) {
		placed[i] = true
		out = append(out, &ast.GenDecl{Tok: token.TYPE, TokPos: specs[i].Pos(), Specs: []ast.Spec{specs[i]}})
		for k := range specs {
			if !placed[k] && after[k] == i {
				place(k)
			}
		}
	}
	i := 0
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			out = append(out, d)
			continue
		}
		for range gd.Specs {
			if after[i] < 0 {
				place(i)
			}
			i++
		}
	}
	c.Decls.Decls = out
}
