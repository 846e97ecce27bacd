package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// xmlArgs: xml.Marshal, xml.MarshalIndent and (*xml.Encoder).Encode of a
// value that may be (or hold at the top, in a slice, array, pointer or
// interface) a struct a cell declared. yaegi v0.16.1 builds the struct
// types cells declare with reflect.StructOf (interp/type.go, refType),
// which makes them unnamed, and encoding/xml names a top-level element
// by its value's type: it refused the value ("xml: unsupported type:
// struct { N int ... }") where Go wrote <Item n="3">. The call goes to
// grundyrt's XMLMarshal, XMLMarshalIndent or XMLEncode, which give such
// an element its type's name.
//
// What native xml cannot do for cell types is refused before running, in
// these calls and in xml.Unmarshal and (*xml.Decoder).Decode: calling
// their MarshalXML, MarshalText, UnmarshalText... methods (the
// interpreter's types have none reflect can call: xml wrote the
// underlying value), and flattening an embedded struct field of a cell
// type (yaegi makes it a plain field: xml wrote it as an element).
var xmlArgs = Pass{
	Name:     "xmlargs",
	Run:      runXMLArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"xml_cell_struct_names", "xml_cell_methods_refused"},
}

// xmlMethods are the methods encoding/xml calls, encoding and decoding.
var xmlMethods = []string{"MarshalXML", "MarshalXMLAttr", "MarshalText", "UnmarshalXML", "UnmarshalXMLAttr", "UnmarshalText"}

func runXMLArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/xml" {
			return true
		}
		recv := fn.Type().(*types.Signature).Recv() != nil
		var name string
		arg := 0
		switch {
		case !recv && fn.Name() == "Marshal" && len(call.Args) == 1:
			name = prelude.RTXMLMarshal
		case !recv && fn.Name() == "MarshalIndent" && len(call.Args) == 3:
			name = prelude.RTXMLMarshalIndent
		case recv && fn.Name() == "Encode" && len(call.Args) == 1:
			name = prelude.RTXMLEncode
		case !recv && fn.Name() == "Unmarshal" && len(call.Args) == 2:
			arg = 1
		case recv && (fn.Name() == "Decode" && len(call.Args) == 1 || fn.Name() == "EncodeElement" && len(call.Args) == 2):
		default:
			return true
		}
		t := c.Types.TypeOf(call.Args[arg])
		if n, m := xmlUnsupported(t, map[types.Type]bool{}); n != nil {
			if m == "" {
				c.Fail(call.Pos(), "xml.%s of a %s: encoding/xml would write the embedded field %s of a struct a cell declares as an element of its own in this interpreter (it cannot see the embedding); write the embedded type's fields into the struct instead", fn.Name(), types.TypeString(t, shortQualifier), n.Obj().Name())
			} else {
				c.Fail(call.Pos(), "xml.%s of a %s: encoding/xml cannot call the %s method of %s (a type a cell declares) in this interpreter; use a string field holding the method's text, or encode with encoding/json, which calls it", fn.Name(), types.TypeString(t, shortQualifier), m, n.Obj().Name())
			}
			return true
		}
		if name == "" || !xmlMayHoldCellStruct(t, map[types.Type]bool{}) {
			return true
		}
		if recv {
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			call.Args = []ast.Expr{sel.X, call.Args[0]}
		}
		call.Fun = rtSelector(name, call.Fun.Pos())
		return true
	})
}

// xmlMayHoldCellStruct reports whether a value of t may be, or hold as
// top-level elements (through pointers, slices, arrays and interfaces), a
// struct a cell declares.
func xmlMayHoldCellStruct(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if types.IsInterface(t) {
		return true
	}
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if _, ok := u.Underlying().(*types.Struct); ok {
			return typecheck.IsCellType(u)
		}
		return xmlMayHoldCellStruct(u.Underlying(), seen)
	case *types.Pointer:
		return xmlMayHoldCellStruct(u.Elem(), seen)
	case *types.Slice:
		return xmlMayHoldCellStruct(u.Elem(), seen)
	case *types.Array:
		return xmlMayHoldCellStruct(u.Elem(), seen)
	}
	return false
}

// xmlUnsupported is a cell type in t with a method encoding/xml calls
// (and the method), or a cell type embedded in a struct (and ""), or nil.
func xmlUnsupported(t types.Type, seen map[types.Type]bool) (*types.Named, string) {
	if t == nil || seen[t] {
		return nil, ""
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if typecheck.IsCellType(u) && !types.IsInterface(u) {
			ms := types.NewMethodSet(types.NewPointer(u))
			for _, m := range xmlMethods {
				if ms.Lookup(nil, m) != nil {
					return u, m
				}
			}
		}
		return xmlUnsupported(u.Underlying(), seen)
	case *types.Pointer:
		return xmlUnsupported(u.Elem(), seen)
	case *types.Slice:
		return xmlUnsupported(u.Elem(), seen)
	case *types.Array:
		return xmlUnsupported(u.Elem(), seen)
	case *types.Map:
		return xmlUnsupported(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if n, ok := types.Unalias(deref(f.Type())).(*types.Named); ok && f.Embedded() && typecheck.IsCellType(n) && !types.IsInterface(n) {
				if _, isStruct := n.Underlying().(*types.Struct); isStruct {
					return n, ""
				}
			}
			if n, m := xmlUnsupported(f.Type(), seen); n != nil {
				return n, m
			}
		}
	}
	return nil, ""
}
