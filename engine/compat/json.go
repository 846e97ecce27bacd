package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// jsonArgs: json.Marshal, json.MarshalIndent and (*json.Encoder).Encode of
// a value whose type has a cell type with MarshalJSON or MarshalText in it,
// a struct a cell declared with an embedded field, or an interface (which
// may hold either). yaegi v0.16.1 builds cell types with reflect
// (interp/type.go, refType), which gives them no methods native json can
// see and makes an embedded field a plain one, so native json ignored the
// methods (on fields, elements and map keys) and named embedded structs as
// fields. The value goes as Typed, with its type as the oracle knows it,
// to grundyrt's JSONMarshal, JSONMarshalIndent and JSONEncode, which
// encode it as Go does (see grundyrt's json.go).
var jsonArgs = Pass{
	Name:     "jsonargs",
	Run:      runJSONArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"json_cell_methods", "json_embedded_cell_struct"},
}

func runJSONArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/json" {
			return true
		}
		recv := fn.Type().(*types.Signature).Recv()
		var name string
		switch {
		case recv == nil && fn.Name() == "Marshal" && len(call.Args) == 1:
			name = prelude.RTJSONMarshal
		case recv == nil && fn.Name() == "MarshalIndent" && len(call.Args) == 3:
			name = prelude.RTJSONMarshalIndent
		case recv != nil && fn.Name() == "Encode" && len(call.Args) == 1:
			name = prelude.RTJSONEncode
		default:
			return true
		}
		if !jsonNeeds(c.Types.TypeOf(call.Args[0]), map[types.Type]bool{}) {
			return true
		}
		typed := c.typedArg(call.Args[0])
		if typed == nil {
			return true
		}
		args := append([]ast.Expr{typed}, call.Args[1:]...)
		if recv != nil {
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			args = []ast.Expr{sel.X, typed}
		}
		call.Fun, call.Args = rtSelector(name, call.Fun.Pos()), args
		return true
	})
}

// jsonNeeds reports whether native json may encode values of t otherwise
// than Go: t has in it an interface, a cell type with MarshalJSON or
// MarshalText, or a struct with an embedded field of a cell type.
func jsonNeeds(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if types.IsInterface(t) {
		return true
	}
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if typecheck.IsCellType(u) {
			for _, tt := range []types.Type{u, types.NewPointer(u)} {
				ms := types.NewMethodSet(tt)
				if ms.Lookup(nil, "MarshalJSON") != nil || ms.Lookup(nil, "MarshalText") != nil {
					return true
				}
			}
		}
		return jsonNeeds(u.Underlying(), seen)
	case *types.Pointer:
		return jsonNeeds(u.Elem(), seen)
	case *types.Slice:
		return jsonNeeds(u.Elem(), seen)
	case *types.Array:
		return jsonNeeds(u.Elem(), seen)
	case *types.Map:
		return jsonNeeds(u.Key(), seen) || jsonNeeds(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if f.Embedded() && typecheck.IsCellType(f.Type()) || jsonNeeds(f.Type(), seen) {
				return true
			}
		}
	}
	return false
}
