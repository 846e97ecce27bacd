package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// reflectFields: Field(i) and FieldByName of a reflect.Type or Value. The engine tags the first
// field of each struct type a cell declares with the type's name (see
// structNames), and yaegi v0.16.1 exports unexported fields as X+name
// (interp/type.go, refType), which the engine tags too (see
// hiddenFields): a cell reading f.Tag saw grundy:"main.P", and an
// unexported field z was Xz, exported. The field goes through
// grundyrt.StructField, which gives it back as Go describes it (and
// t.FieldByName(name) and reflect.VisibleFields(t) to grundyrt's, which
// do the same for theirs). yaegi marks a field embedded only in a struct
// without other fields (interp/type.go, refType), so reflect found no
// promoted field: v.FieldByName("ID") of an Item embedding Base was
// invalid; grundyrt's finds it through the fields the session's
// description of the type says are embedded, and Field says so:
//
//	rt.Field(i)  =>  grundyrt.StructField(rt, i)
//	v.FieldByName(name)  =>  grundyrt.ValueFieldByName(v, name)
//	rt.FieldByNameFunc(f), v.FieldByNameFunc(f)  =>  grundyrt.FieldByNameFunc(rt, f), grundyrt.ValueFieldByNameFunc(v, f)
//	v.Field(i)  =>  grundyrt.ValueField(v, i)
//	rt.FieldByIndex(x), v.FieldByIndex(x)  =>  grundyrt.FieldByIndex(rt, x), grundyrt.ValueFieldByIndex(v, x)
//	rt.NumField()  =>  grundyrt.TypeNumField(rt)
//	v.NumField()  =>  grundyrt.ValueNumField(v)
//	v.Elem()  =>  grundyrt.ValueElem(v)
//	v.Set(x)  =>  grundyrt.ValueSet(v, x)
//
// (NumField leaves out the field of no size that carries the name of a
// struct type without fields: see structNames. Elem of an interface
// value takes a value of a cell type on a basic type, a slice or a map
// out of the interpreter's box, and a cell's value out of a native
// interface's wrapper: Elem of a []any's Temp(2) was a struct. Set of a
// struct{ V int } into a Box panicked: the struct types differ by the
// name's tag.)
//
// The exported fields yaegi makes of unexported ones were settable
// through reflect (CanSet and CanInterface true, Set and Interface
// succeeded); ValueField and ValueFieldByName mark such a field
// read-only, as reflect marks Go's.
var reflectFields = Pass{
	Name:     "reflectfields",
	Run:      runReflectFields,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"reflect_struct_field_tags", "reflect_promoted_fields", "reflect_hidden_paths"},
}

func runReflectFields(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) > 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pos := call.Pos()
		if len(call.Args) == 0 {
			if sel.Sel.Name == "Elem" && isReflectValue(c.Types.TypeOf(sel.X)) {
				c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(prelude.RTValueElem, pos), Lparen: pos, Args: []ast.Expr{sel.X}, Rparen: call.End()})
				return true
			}
			if sel.Sel.Name != "NumField" {
				return true
			}
			fn := ""
			if isReflectType(c.Types.TypeOf(sel.X)) {
				fn = prelude.RTTypeNumField
			} else if isReflectValue(c.Types.TypeOf(sel.X)) {
				fn = prelude.RTValueNumField
			}
			if fn != "" {
				c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(fn, pos), Lparen: pos, Args: []ast.Expr{sel.X}, Rparen: call.End()}) // (an int, for the passes after: range n)
			}
			return true
		}
		fn := ""
		switch {
		case isReflectType(c.Types.TypeOf(sel.X)):
			fn = typeFieldCalls[sel.Sel.Name]
		case isReflectValue(c.Types.TypeOf(sel.X)):
			fn = valueFieldCalls[sel.Sel.Name]
		case sel.Sel.Name == "VisibleFields" && c.isPackage(sel.X, "reflect"):
			c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(prelude.RTVisibleFields, pos), Lparen: pos, Args: call.Args, Rparen: call.End()})
		}
		if fn != "" {
			// (Typed as the call was, for a call on its result:
			// v.Field(0).Field(1).)
			c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(fn, pos), Lparen: pos, Args: []ast.Expr{sel.X, call.Args[0]}, Rparen: call.End()})
		}
		return true
	})
}

// The runtime's functions for reflect.Type's and reflect.Value's
// methods of one argument that reach a struct's fields.
var (
	typeFieldCalls  = map[string]string{"Field": prelude.RTStructField, "FieldByName": prelude.RTFieldByName, "FieldByNameFunc": prelude.RTFieldByNameFunc, "FieldByIndex": prelude.RTFieldByIndex}
	valueFieldCalls = map[string]string{"Field": prelude.RTValueField, "FieldByName": prelude.RTValueFieldByName, "FieldByNameFunc": prelude.RTValueFieldByNameFunc, "FieldByIndex": prelude.RTValueFieldByIndex,
		"Set": prelude.RTValueSet} // (a struct's value: see grundyrt.ValueSet)
)

// isPackage reports whether x names the imported package path.
func (c *Cell) isPackage(x ast.Expr, path string) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := c.Types.ObjectOf(id).(*types.PkgName)
	return ok && pn.Imported().Path() == path
}

// isReflectValue reports whether t is reflect.Value.
func isReflectValue(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Value"
}
