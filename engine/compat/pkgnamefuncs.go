package compat

import (
	"go/ast"
	"go/types"

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
	Snippets: []string{"func_named_like_package", "func_named_like_iter_seq", "generic_func_named_like_method"},
}

const pkgFuncPrefix = tempPrefix + "Fn_"

func runPkgNameFuncs(c *Cell) {
	clash := c.methodNamedFuncs()
	c.renameFuncs(func(name string) string {
		if c.Types.IsPackage(name) || prelude.StdGenericTypes()[name] || clash[name] ||
			c.Session != nil && c.Session.Func(pkgFuncPrefix+name) != nil {
			return pkgFuncPrefix + name
		}
		return ""
	})
}

// methodNamedFuncs are the generic functions the cell declares under the
// name of a method of a generic type of the session (func Push[T any](s
// *Stack[T], v T) beside func (s *Stack[T]) Push(v T)): yaegi v0.16.1
// keeps an instance of either by its name and type arguments
// (interp/generic.go:22, "Push[int]"), so the call Push(s, 1) compiled
// the method's ("cannot use type *main.Stack[int] as type int", "too
// many arguments"). They are renamed too, as later cells see them.
func (c *Cell) methodNamedFuncs() map[string]bool {
	if c.Decls == nil {
		return nil
	}
	var methods, out map[string]bool // of the generic types; the clashes
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams == nil {
			continue
		}
		if methods == nil {
			methods = map[string]bool{}
			for _, tn := range c.Types.CellTypes() {
				if n, ok := types.Unalias(tn.Type()).(*types.Named); ok && n.TypeParams().Len() > 0 {
					for i := range n.NumMethods() {
						methods[n.Method(i).Name()] = true
					}
				}
			}
		}
		if methods[fd.Name.Name] {
			if out == nil {
				out = map[string]bool{}
			}
			out[fd.Name.Name] = true
		}
	}
	return out
}
