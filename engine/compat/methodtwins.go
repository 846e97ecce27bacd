package compat

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
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
// method's answer. Where both types, and the type arguments, come from
// earlier cells, the pass does not refuse the pair but lists it in Apart:
// the engine makes each instance first, in a compilation of its own
// (engine.makeApart). Stack[T] and Queue[T] written in one generic function
// or type are twins too: they are instantiated together, with the same
// arguments, whenever it is (the interpreter's compiler panicked). An
// instance made in an earlier cell does not meet this cell's: the engine
// drops the cached methods before each compilation
// (engine.forgetMethodInstances).
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
		apart  bool // of earlier cells' types only (see earlierTypes)
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
		scope := ""
		for i := range targs.Len() {
			if tp := typeIn(targs.At(i), isTypeParam); tp != nil && scope == "" {
				// Stack[T] and Queue[T] in one generic function or type
				// are instantiated together, with the same arguments,
				// whenever it is.
				scope = fmt.Sprintf(" %d", tp.(*types.TypeParam).Obj().Pos())
			}
			args = append(args, types.TypeString(targs.At(i), shortQualifier))
		}
		if len(args) == 0 {
			continue
		}
		list := strings.Join(args, ", ")
		name := n.Obj().Name() + "[" + list + "]"
		key := list + scope
		apart := scope == "" && c.earlierTypes(tn.Type(), targs)
		for _, other := range byArgs[key] {
			if other.origin == n {
				continue
			}
			if m := sharedMethodName(other.origin, n); m != "" {
				if apart && other.apart {
					// Of earlier cells' types only: the engine makes
					// each first, in a compilation of its own.
					c.Apart = appendNew(c.Apart, other.name, name)
					continue
				}
				instead := ""
				if scope == "" {
					instead = fmt.Sprintf(", make the %s and the %s in a later cell than the one declaring their types, or write one of the types without type parameters for %s", other.name, name, list)
				}
				c.Fail(id.Pos(), "%s and %s both have a method %s: this interpreter compiles a generic type's method once for its name and type arguments, so %s's %s would run %s's; give one of the methods another name (%s%s)%s",
					name, other.name, m, name, m, other.name, m, n.Obj().Name(), instead)
				return
			}
		}
		byArgs[key] = append(byArgs[key], instance{n, name, apart})
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

// earlierTypes reports whether the instance of the generic type origin
// with type arguments targs can be written before the cell's
// declarations compile: the cell's types among them (origin too) are
// earlier cells' (as this cell sees them), not this cell's nor a
// function's.
func (c *Cell) earlierTypes(origin types.Type, targs *types.TypeList) bool {
	ts := []types.Type{origin}
	for i := range targs.Len() {
		ts = append(ts, targs.At(i))
	}
	for _, t := range ts {
		late := typeIn(t, func(t types.Type) bool {
			n, ok := t.(*types.Named)
			return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" && c.Types.Earlier(n.Obj().Name()) != n.Obj()
		})
		if late != nil {
			return false
		}
	}
	return true
}

// appendNew appends to xs those of ys it does not hold.
func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}
