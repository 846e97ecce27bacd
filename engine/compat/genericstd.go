package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// genericStd: the generic API of native standard packages (errors.AsType,
// sync.OnceValue, sync.OnceValues, atomic.Pointer[T]) is the prelude's interpreted
// helpers. yaegi v0.16.1 holds a native package as a symbol table of
// reflect values (interp/use.go), which cannot hold a generic function or
// type, so the selector was undefined; the type oracle knows these from
// the prelude's declarations (prelude.Generic), and the pass renames each
// use to its helper (prelude.GenericStd), after typeArgs has written the
// type arguments it infers:
//
//	var best atomic.Pointer[Best]     =>  var best _grundyAtomicPointer[Best]
//	get := sync.OnceValue[int](load)  =>  get := _grundyOnceValue[int](load)
var genericStd = Pass{
	Name:     "genericstd",
	Run:      runGenericStd,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"generic_std_api"},
}

func runGenericStd(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		pkg, ok := c.Types.ObjectOf(x).(*types.PkgName)
		if !ok {
			return true
		}
		if name, ok := prelude.GenericStd[pkg.Imported().Path()+"."+sel.Sel.Name]; ok {
			cur.Replace(ident(name, sel.Pos()))
		}
		return true
	})
}
