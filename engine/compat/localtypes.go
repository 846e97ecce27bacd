package compat

import (
	"go/ast"
	"go/types"
)

// localTypes refuses a value of a type declared in a function put in an
// empty interface by interpreted code (assigned, returned, appended,
// converted, a map key) when the interpreter keeps less of it there than
// Go: yaegi v0.16.1 builds such a type with reflect alone, and no pass
// can name it in a later cell. One on a type other than a struct (type
// Celsius float64) is its underlying type's value there, so %T printed
// float64, x.(float64) was true, case float64 took it and a map keyed by
// any merged Tag("a") with "a". A struct with methods of an embedded field
// (type card struct{ Face }) lost them (Println printed {face}, not face;
// an assertion to fmt.Stringer was false), and one with a field of a
// cell type declared on a type other than a struct (type L int with a
// String method; a []Key2 of a local type Key2) printed it as its
// underlying value ({1}, not {s}; []string, not []main.Key2). fmt's own
// arguments are printed by their static types and stay.
var localTypes = Pass{
	Name:     "localtypes",
	Run:      runLocalTypes,
	Kinds:    append([]ast.Node{(*ast.IndexExpr)(nil)}, assignedKinds...),
	Snippets: []string{"local_types_in_any_refused"},
}

func runLocalTypes(c *Cell) {
	if c.localTypeArgs(); c.err != nil {
		return
	}
	c.Apply(func(cur Cursor) bool {
		var stores []assignedValue
		switch n := cur.Node().(type) {
		case *ast.IndexExpr:
			if m, ok := c.Types.TypeOf(n.X).Underlying().(*types.Map); ok && c.Types.IsValue(n.Index) {
				stores = append(stores, assignedValue{target: m.Key(), value: n.Index})
			}
		case *ast.CallExpr:
			if c.Types.IsType(n.Fun) && len(n.Args) == 1 {
				stores = append(stores, assignedValue{target: c.Types.TypeOf(n.Fun), value: n.Args[0]})
			}
		}
		contained := c.toLocalVars(cur.Node())
		for _, v := range append(stores, c.assignedValues(cur, c.interpreted)...) {
			if !emptyIface(v.target) {
				continue
			}
			n, ok := types.Unalias(c.Types.TypeOf(v.value)).(*types.Named)
			if !ok || !localType(n) || hasTypeParam(n) || c.soleLocal(n.Obj()) {
				continue
			}
			if _, st := n.Underlying().(*types.Struct); !st && contained {
				// (var x any = p in the function: what asks its type
				// there is refused by basedTypes, which sees the type.)
				continue
			}
			why := localLoss(n, map[*types.Named]bool{})
			if why != "" && c.Types.Renamed(n.Obj()) != "" {
				why = "another type declared in a function is named " + n.Obj().Name() + " too, and fmt and assertions would take the methods of one for the other's"
			}
			if why != "" {
				c.Fail(v.value.Pos(), "a value of %s, a type declared in a function, put in an interface (%s): %s; declare %s at a cell's top level, where interfaces keep its type",
					n.Obj().Name(), types.TypeString(v.target, pkgName), why, n.Obj().Name())
				return false
			}
		}
		return true
	})
}

// soleLocal reports whether tn is a type localTypeNames declared at the
// top, which the interpreter makes as it makes the top's types, and the
// only one of its name there: the printer knows such types by their names
// in Go (main.P), and two would share their methods.
func (c *Cell) soleLocal(tn *types.TypeName) bool {
	if c.Types.Renamed(tn) == "" {
		return false
	}
	for _, o := range c.Types.LocalTypes() {
		if o != tn && o.Name() == tn.Name() {
			return false
		}
	}
	return true
}

// localLoss says what the interpreter loses of a value of n, a type
// declared in a function, in an empty interface; "" when nothing (seen:
// the types asked about already).
func localLoss(n *types.Named, seen map[*types.Named]bool) string {
	seen[n] = true
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		if _, iface := n.Underlying().(*types.Interface); iface {
			return ""
		}
		return "the interpreter keeps it there as " + an(types.TypeString(n.Underlying(), pkgName)) + ", so %T, assertions, type switches and map keys would take it for one"
	}
	if types.NewMethodSet(n).Len() > 0 || types.NewMethodSet(types.NewPointer(n)).Len() > 0 {
		return "the interpreter makes its type without the methods of its embedded fields, so fmt would not call them and an assertion to an interface would fail"
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if t := typeIn(f.Type(), func(t types.Type) bool {
			fn, ok := t.(*types.Named)
			return ok && !seen[fn] && (isBased(fn) || localType(fn) && localLoss(fn, seen) != "")
		}); t != nil {
			return "the interpreter keeps its field " + f.Name() + " there without its type " + types.TypeString(t, pkgName) + ", so fmt would print its underlying value"
		}
	}
	return ""
}

// toLocalVars reports whether n assigns or declares only variables of a
// function (var x any = p, x = p), which no later cell sees.
func (c *Cell) toLocalVars(n ast.Node) bool {
	var ids []*ast.Ident
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				return false
			}
			ids = append(ids, id)
		}
	case *ast.ValueSpec:
		ids = n.Names
	default:
		return false
	}
	for _, id := range ids {
		v, ok := c.Types.ObjectOf(id).(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || cellGlobal(v) {
			return false
		}
	}
	return true
}

// localTypeArgs refuses a type declared in a function on a type other
// than a struct (or a struct localLoss finds wanting) as a type argument
// of a cell's generic function or type that hands out an empty interface
// (func box[T any](v T) any; a method returning any or []any): the
// interpreter instantiates it as for the underlying type, and the value
// it puts in the interface was that type's (%T said float64, a map keyed
// by any merged label("a") with "a"), silently.
func (c *Cell) localTypeArgs() {
	for id, inst := range c.Types.Instances {
		var results []*types.Tuple
		switch obj := c.Types.Uses[id].(type) {
		case *types.Func:
			if obj.Pkg() == nil || obj.Pkg().Path() != "main" {
				continue
			}
			results = append(results, obj.Type().(*types.Signature).Results())
		case *types.TypeName:
			n, ok := obj.Type().(*types.Named)
			if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
				continue
			}
			for i := range n.NumMethods() {
				results = append(results, n.Method(i).Type().(*types.Signature).Results())
			}
		default:
			continue
		}
		if !handsOutAny(results) {
			continue
		}
		for i := range inst.TypeArgs.Len() {
			n, ok := types.Unalias(inst.TypeArgs.At(i)).(*types.Named)
			if !ok || !localType(n) || hasTypeParam(n) {
				continue
			}
			if why := localLoss(n, map[*types.Named]bool{}); why != "" {
				c.Fail(id.Pos(), "%s, a type declared in a function, as a type argument of %s, which puts its values in an interface: %s; declare %s at a cell's top level, where interfaces keep its type",
					n.Obj().Name(), id.Name, why, n.Obj().Name())
				return
			}
		}
	}
}

// handsOutAny reports whether a result among results has an empty
// interface type in it (any, []any, map[string]any).
func handsOutAny(results []*types.Tuple) bool {
	for _, r := range results {
		for i := range r.Len() {
			if typeIn(r.At(i).Type(), func(t types.Type) bool { return emptyIface(t) }) != nil {
				return true
			}
		}
	}
	return false
}
