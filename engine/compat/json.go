package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// jsonArgs: json.Marshal, json.MarshalIndent and (*json.Encoder).Encode of
// a value whose type has in it a cell type with MarshalJSON or
// MarshalText, a struct a cell declared with an embedded field, or an
// interface (which may hold either); json.Unmarshal and
// (*json.Decoder).Decode into one with UnmarshalJSON or UnmarshalText, an
// embedded field, or an empty interface json decodes into (jsonReusesAny:
// an any holding a pointer to a cell's struct with methods). yaegi v0.16.1 builds cell types with reflect
// (interp/type.go, refType), which gives them no methods native json can
// see and makes an embedded field a plain one, so native json ignored the
// methods (on fields, elements and map keys) and named embedded structs
// as fields. The value (or pointer) goes as Typed, with its type as the
// oracle knows it, to grundyrt's JSONMarshal, JSONMarshalIndent,
// JSONEncode, JSONUnmarshal and JSONDecode, which encode and decode it as
// Go does (see grundyrt's json.go). A pointer to decode into that comes
// as an interface (load(s string, into any)) goes as Typed too, and the
// values of a cell type that need none of this go bare to the encoding
// functions, which name cell types in native json's errors.
var jsonArgs = Pass{
	Name:     "jsonargs",
	Run:      runJSONArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"json_cell_methods", "json_embedded_cell_struct", "json_unmarshal_cell_methods", "json_type_error_names", "json_omitzero_method_errors", "json_decode_into_any_target", "json_into_boxed_pointers", "json_promoted_library_marshaler", "json_embedded_unexported_basic"},
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
		arg := 0 // the value (or pointer, decoding)
		needs := jsonNeeds
		switch {
		case recv == nil && fn.Name() == "Marshal" && len(call.Args) == 1:
			name = prelude.RTJSONMarshal
		case recv == nil && fn.Name() == "MarshalIndent" && len(call.Args) == 3:
			name = prelude.RTJSONMarshalIndent
		case recv != nil && fn.Name() == "Encode" && len(call.Args) == 1:
			name = prelude.RTJSONEncode
		case recv == nil && fn.Name() == "Unmarshal" && len(call.Args) == 2:
			name, arg, needs = prelude.RTJSONUnmarshal, 1, jsonInNames
		case recv != nil && fn.Name() == "Decode" && len(call.Args) == 1:
			name, needs = prelude.RTJSONDecode, jsonInNames
		default:
			return true
		}
		if !needs(c.Types.TypeOf(call.Args[arg]), map[types.Type]bool{}) {
			at := c.Types.TypeOf(call.Args[arg])
			if arg == 0 && name != prelude.RTJSONDecode && hasCellType(at, map[types.Type]bool{}) ||
				name != prelude.RTJSONMarshal && name != prelude.RTJSONMarshalIndent && name != prelude.RTJSONEncode && at != nil && hasTypeParam(at) {
				// Native json encodes it as Go does; its errors name
				// the interpreter's types (a cycle "via *struct {...}"),
				// as do its decoding errors in generic code (a struct
				// field of "" for Pair[int,int]'s).
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && recv != nil {
					call.Args = []ast.Expr{sel.X, call.Args[0]}
				}
				call.Fun = rtSelector(name, call.Fun.Pos())
			}
			return true
		}
		typed := c.typedArg(call.Args[arg])
		if typed == nil {
			return true
		}
		args := append([]ast.Expr{}, call.Args...)
		args[arg] = typed
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

// jsonInNeeds reports whether native json may decode into values of t
// otherwise than Go: t is an interface (load(s string, into any) may be
// handed a pointer to a cell type), or has in it a cell type with
// UnmarshalJSON or UnmarshalText, an interface a cell declared, or a
// struct with an embedded field of a cell type.
func jsonInNeeds(t types.Type, seen map[types.Type]bool) bool {
	if types.IsInterface(t) {
		return true
	}
	return jsonHas(t, seen, "UnmarshalJSON", "UnmarshalText")
}

// jsonInNames reports whether native json may decode into values of t
// otherwise than Go, or name a cell type in its errors otherwise than Go
// (a struct a cell declares has no name there, a type on another type is
// that type): t has a cell type in it, or an empty interface where json
// decodes into what it holds (jsonReusesAny).
func jsonInNames(t types.Type, seen map[types.Type]bool) bool {
	return jsonInNeeds(t, seen) || hasCellType(t, map[types.Type]bool{}) || jsonReusesAny(t, map[types.Type]bool{})
}

// jsonReusesAny reports whether t has an empty interface where json
// decodes into the value there (what a pointer points to, a struct's
// fields, a slice's or an array's elements; a map's are made anew). Go's
// json decodes into a non-nil pointer such an interface holds; yaegi
// keeps a pointer to a cell type with methods there in its box, a struct,
// which native json replaced with a map[string]interface {}
// (json.Unmarshal(b, &v) with v any holding &Rect{}). grundyrt's
// decoder looks into the box (see boxedPointerIn there).
func jsonReusesAny(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if _, param := types.Unalias(t).(*types.TypeParam); param {
		return false // (generic code's values go bare: see runJSONArgs)
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return u.Empty()
	case *types.Pointer:
		return jsonReusesAny(u.Elem(), seen)
	case *types.Slice:
		return jsonReusesAny(u.Elem(), seen)
	case *types.Array:
		return jsonReusesAny(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if jsonReusesAny(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// hasCellType reports whether t has in it a type a cell declared.
func hasCellType(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		return typecheck.IsCellType(u) || hasCellType(u.Underlying(), seen)
	case *types.Pointer:
		return hasCellType(u.Elem(), seen)
	case *types.Slice:
		return hasCellType(u.Elem(), seen)
	case *types.Array:
		return hasCellType(u.Elem(), seen)
	case *types.Map:
		return hasCellType(u.Key(), seen) || hasCellType(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if hasCellType(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// jsonNeeds reports whether native json may encode values of t otherwise
// than Go: t has in it an interface, a cell type with MarshalJSON,
// MarshalText or IsZero (which omitzero asks), or a struct with an
// embedded field of a cell type.
func jsonNeeds(t types.Type, seen map[types.Type]bool) bool {
	self := false
	eachNamed(t, func(n *types.Named) { self = self || selfFunc(n) })
	if types.IsInterface(t) || self {
		// (A function type that refers to itself is a struct to the
		// interpreter, selfFuncs: grundyrt says json cannot encode it.)
		return true
	}
	return jsonHas(t, seen, "MarshalJSON", "MarshalText", "IsZero")
}

// cellEmbedsStruct reports whether f, an embedded field, is a cell
// struct's field of a library struct type (struct{ image.Point; Z int }):
// yaegi v0.16.1 marks a field embedded only in a struct of one field, so
// native json nested it under its type's name.
func cellEmbedsStruct(f *types.Var) bool {
	_, st := deref(f.Type()).Underlying().(*types.Struct)
	return st && f.Pkg() != nil && f.Pkg().Path() == "main"
}

// jsonHas reports whether t has in it a cell type with one of methods (in
// its pointer's method set), an interface a cell declared, or a struct
// with an embedded field of a cell type, or, for the encoding methods,
// any interface.
func jsonHas(t types.Type, seen map[types.Type]bool, methods ...string) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if types.IsInterface(t) {
		if n, ok := types.Unalias(t).(*types.Named); ok && typecheck.IsCellType(n) {
			return true
		}
		return methods[0] == "MarshalJSON"
	}
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if typecheck.IsCellType(u) {
			ms := types.NewMethodSet(types.NewPointer(u))
			for _, m := range methods {
				if ms.Lookup(nil, m) != nil {
					return true
				}
			}
		}
		return jsonHas(u.Underlying(), seen, methods...)
	case *types.Pointer:
		return jsonHas(u.Elem(), seen, methods...)
	case *types.Slice:
		return jsonHas(u.Elem(), seen, methods...)
	case *types.Array:
		return jsonHas(u.Elem(), seen, methods...)
	case *types.Map:
		return jsonHas(u.Key(), seen, methods...) || jsonHas(u.Elem(), seen, methods...)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if f.Embedded() && (typecheck.IsCellType(deref(f.Type())) || cellEmbedsStruct(f)) || jsonHas(f.Type(), seen, methods...) {
				return true
			}
		}
	}
	return false
}
