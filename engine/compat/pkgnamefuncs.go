package compat

import (
	"go/ast"

	"grundy/engine/prelude"
)

// pkgNameFuncs: a function the cell declares at top level under the name
// of a package the session imports for its cells (func solve, the
// commonest name in a puzzle's notebook, while grundy's solver package is
// solve; func sort). yaegi v0.16.1 keeps a file's imports in the package
// scope under "name/file" and refuses a function declared there under
// that name (interp/gta.go:206, "solve redeclared in this block"); the
// session's cells share one file, so the import cannot be left out for
// one cell. The function is renamed, in its declaration and wherever this
// or a later cell uses it (the oracle tells the function from the
// package), as Go sees it: after func solve, solve is the function.
//
//	func solve(xs []int) int { ... }; solve(nums)  =>  func _grundyFn_solve(...) ...; _grundyFn_solve(nums)
//
// Types keep being refused (pkgNameDecls): their name is printed (%T, %v
// of a map's type), which a renamed type would get wrong.
//
// A function named like a generic type of the engine's source packages
// (func Seq[T any](xs ...T) iter.Seq[T]) is renamed so too: yaegi
// confused the two when instantiating them and failed with a nil
// dereference compiling the cell (prelude.StdGenericTypes).
var pkgNameFuncs = Pass{
	Name:     "pkgnamefuncs",
	Run:      runPkgNameFuncs,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"func_named_like_package", "func_named_like_iter_seq"},
}

const pkgFuncPrefix = tempPrefix + "Fn_"

func runPkgNameFuncs(c *Cell) {
	c.renameFuncs(func(name string) string {
		if c.Types.IsPackage(name) || prelude.StdGenericTypes()[name] {
			return pkgFuncPrefix + name
		}
		return ""
	})
}
