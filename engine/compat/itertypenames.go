package compat

import (
	"go/ast"
	"go/types"
	"strings"
)

// iterTypeNames: a generic type the cells declare under the name of a
// generic type of package iter (type Seq[T any] struct{ xs []T }) beside
// an instance of iter's written in the cells (iter.Seq[int]). yaegi
// v0.16.1 names a generic type's instance by the type's name and its
// type arguments, without the package (interp/type.go:841, name :=
// lt.id() + "[" + t1.id() + "]"), and keeps it in the scope of the code
// that instantiates it, so whichever of Seq[int] and iter.Seq[int] the
// cells made first stood for both: "undefined: xs" for the cells' own
// Seq[int]{xs: ...}, "cannot use type main.Seq[int] as type func(func(int)
// bool)" for iter's. The engine refuses the second, naming both: the
// cell that writes iter.Seq[...] where the cells declare a generic Seq,
// and the cell that declares a generic Seq where a declaration of the
// session has an iter.Seq instance in its type.
var iterTypeNames = Pass{
	Name:     "itertypenames",
	Run:      runIterTypeNames,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil), (*ast.TypeSpec)(nil)},
	Snippets: []string{"iter_type_names_refused"},
}

// iterGenerics are package iter's generic types.
var iterGenerics = map[string]bool{"Seq": true, "Seq2": true}

func runIterTypeNames(c *Cell) {
	// The cells' generic types named like iter's, declared earlier or by
	// this cell.
	own := map[string]bool{}
	for name := range iterGenerics {
		for _, obj := range []types.Object{c.Types.Pkg.Scope().Lookup(name), c.Types.Earlier(name)} {
			if tn, ok := obj.(*types.TypeName); ok {
				if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
					own[name] = true
				}
			}
		}
	}
	if len(own) == 0 {
		return
	}
	refuse := func(pos ast.Node, name string) {
		c.Fail(pos.Pos(), "a generic type named %s beside iter.%s[...]: the interpreter takes an instance of one for the other's with the same type arguments (it names instances without their package); give the cells' type another name", name, name)
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			var x ast.Expr
			switch n := n.(type) {
			case *ast.IndexExpr:
				x = n.X
			case *ast.IndexListExpr:
				x = n.X
			case *ast.TypeSpec:
				if n.TypeParams != nil && own[n.Name.Name] && c.sessionWritesIter(n.Name.Name) {
					refuse(n, n.Name.Name)
					return false
				}
				return true
			default:
				return true
			}
			sel, ok := x.(*ast.SelectorExpr)
			if !ok || !own[sel.Sel.Name] {
				return true
			}
			if tn, ok := c.Types.Uses[sel.Sel].(*types.TypeName); ok && tn.Pkg() != nil && tn.Pkg().Path() == "iter" {
				refuse(n, sel.Sel.Name)
				return false
			}
			return true
		})
	}
}

// sessionWritesIter reports whether a declaration of earlier cells has an
// instance of iter's generic type name in its type (func upto(n int)
// iter.Seq[int]).
func (c *Cell) sessionWritesIter(name string) bool {
	for _, n := range c.Types.EarlierNames() {
		obj := c.Types.Earlier(n)
		if _, isType := obj.(*types.TypeName); !isType && obj != nil && strings.Contains(types.TypeString(obj.Type(), nil), "iter."+name+"[") {
			return true
		}
	}
	return false
}
