package compat

import (
	"go/ast"
	"go/types"
	"strings"
)

// methodTwins refuses a cell that instantiates two generic types of the
// session that have a method of the same name with the same type
// arguments (Stack[int] and Queue[int], both with Pop; Set[int] and
// List[int], both with String). yaegi v0.16.1 keeps the syntax of an
// instantiated generic method by the method's name and the type
// arguments only (interp/generic.go:22, genAST's sname "Pop[int]"), not
// by its receiver's type, so the second type gets the first's method: a
// compile error ("invalid operation: mismatched types bool and int"), a
// panic in reflect.Set, or, where the two structs are alike, the other
// method's answer. Instances made in earlier cells are not seen: the
// type oracle records a cell's own.
var methodTwins = Pass{
	Name:     "methodtwins",
	Run:      runMethodTwins,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"generic_method_twins_refused"},
}

func runMethodTwins(c *Cell) {
	type instance struct {
		origin *types.Named
		name   string
	}
	byArgs := map[string][]instance{}
	for _, id := range c.instanceIDs() {
		tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
		if !ok || tn.Pkg() == nil || tn.Pkg().Path() != "main" {
			continue
		}
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		if !ok || n.TypeParams().Len() == 0 || n.NumMethods() == 0 {
			continue
		}
		targs := c.Types.Instances[id].TypeArgs
		var args []string
		for i := range targs.Len() {
			if hasTypeParam(targs.At(i)) {
				args = nil
				break
			}
			args = append(args, types.TypeString(targs.At(i), shortQualifier))
		}
		if len(args) == 0 {
			continue
		}
		key := strings.Join(args, ", ")
		name := n.Obj().Name() + "[" + key + "]"
		for _, other := range byArgs[key] {
			if other.origin == n {
				continue
			}
			if m := sharedMethodName(other.origin, n); m != "" {
				c.Fail(id.Pos(), "%s and %s both have a method %s: this interpreter compiles a generic type's method once for its name and type arguments, so %s's %s would run %s's; give one of the methods another name (%s%s), or write one of the types without type parameters for %s",
					name, other.name, m, name, m, other.name, m, n.Obj().Name(), key)
				return
			}
		}
		byArgs[key] = append(byArgs[key], instance{n, name})
	}
}

// sharedMethodName is the name of a method a and b, generic types, both
// declare; "" if none.
func sharedMethodName(a, b *types.Named) string {
	for i := range a.NumMethods() {
		m := a.Method(i).Name()
		for j := range b.NumMethods() {
			if b.Method(j).Name() == m {
				return m
			}
		}
	}
	return ""
}
