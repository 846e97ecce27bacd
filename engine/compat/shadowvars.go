package compat

import (
	"go/ast"
	"go/types"
	"strings"

	"grundy/engine/typecheck"
)

// shadowVars: a variable or constant the cell declares at top level under
// the name of a builtin or of a package (max := xs[0], len := len(xs),
// errors := []error{e} after errors.New). In Go the cell's statements are
// a function's body: the name is the builtin or the package until the
// declaration. yaegi v0.16.1's global analysis binds the names a cell's
// top-level statements define in the package scope before anything of the
// cell compiles (interp/gta.go:99), so every use of the name in the cell,
// the earlier ones too, was the variable: len(xs) failed with "too many
// arguments", errors.New with "undefined selector: New". (Functions see
// the variable, as they see every session variable.)
//
// The variable is renamed, in its declaration and wherever this or a later
// cell uses it (the oracle tells the variable from the builtin or the
// package):
//
//	n := len(xs); len := 3; fmt.Println(n, len)  =>  n := len(xs); _grundyVar_len := 3; fmt.Println(n, _grundyVar_len)
//
// It runs before the passes that copy or declare again a variable by its
// name, which see the new name; those that ask the oracle about a
// variable by name ask with SourceName.
var shadowVars = Pass{
	Name:     "shadowvars",
	Run:      runShadowVars,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"variable_named_like_builtin"},
}

const shadowVarPrefix = tempPrefix + "Var_"

// RenamedVar is the name this pass gives a variable called name.
func RenamedVar(name string) string { return shadowVarPrefix + name }

// IsRenamedVar reports whether name is one this pass gave a variable.
func IsRenamedVar(name string) bool { return strings.HasPrefix(name, shadowVarPrefix) }

// SourceName is the name the cell wrote for name, a variable's name as
// this pass may have renamed it.
func SourceName(name string) string { return strings.TrimPrefix(name, shadowVarPrefix) }

func runShadowVars(c *Cell) {
	clashes := func(name string) bool {
		return types.Universe.Lookup(name) != nil || c.Types.IsPackage(name)
	}
	// The cell's own top-level variables: its statements' (the oracle
	// checks them as a function's body) and those moved to package level.
	own := map[types.Object]bool{}
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			for _, id := range typecheck.DefinedIdents(s) {
				if obj := c.Types.Defs[id]; obj != nil && clashes(id.Name) {
					own[obj] = true
				}
			}
		}
	}
	global := func(obj types.Object) bool {
		switch o := obj.(type) {
		case *types.Var:
			if o.IsField() {
				return false
			}
		case *types.Const:
		default:
			return false
		}
		// (An earlier cell's variable keeps the scope it was checked in.)
		return own[obj] || obj == c.Types.Earlier(obj.Name()) || cellGlobal(obj)
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && clashes(id.Name) && global(c.Types.ObjectOf(id)) {
				id.Name = shadowVarPrefix + id.Name
			}
			return true
		})
	}
}
