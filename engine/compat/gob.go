package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// gobIfaces: (*gob.Encoder).Encode and (*gob.Decoder).Decode of a value
// whose type holds an interface type a cell declares (a []Move, a struct
// with a Move field). yaegi v0.16.1 keeps a value of such an interface as
// its own valueInterface struct (interp/value.go: valueInterface{node,
// value}), not as a Go interface, so encoding/gob met a struct with no
// exported fields: Encode returned "gob: type interp.valueInterface has no
// exported fields", naming the interpreter, where Go encodes the values
// (and Decode then failed on what was written). An interface cells do not
// declare (any, with gob.Register of the concrete types) is what gob sees
// as Go does, so the call is refused before running, saying to use it.
// The check walks every field, unexported ones too (which gob skips): a
// cell interface there is refused although gob would not look at it.
// A struct a cell declares with an unexported field is refused too: the
// interpreter exports such a field (see hiddenFields), and gob, which has
// no tags to keep away, encoded and decoded it where Go skips it (a
// private counter came back 9 where Go's is 0), silently.
var gobIfaces = Pass{
	Name:     "gobifaces",
	Run:      runGobIfaces,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"gob_cell_interface_refused", "gob_unexported_fields_refused"},
}

func runGobIfaces(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/gob" || fn.Type().(*types.Signature).Recv() == nil {
			return true
		}
		if fn.Name() != "Encode" && fn.Name() != "Decode" {
			return true
		}
		t := c.Types.TypeOf(call.Args[0])
		var iface *types.Named
		eachNamed(t, func(n *types.Named) {
			if iface == nil && typecheck.IsCellType(n) && types.IsInterface(n) {
				iface = n
			}
		})
		// The words for the call: Encoder.Encode or Decoder.Decode.
		typ, verb, intoVerb, remedy := "Encoder", "encode", "encode", "copy the value into"
		if fn.Name() == "Decode" {
			typ, verb, intoVerb, remedy = "Decoder", "decode", "decode into", "decode into"
		}
		if st, field := unexportedField(t); field != "" {
			c.Fail(call.Pos(), "%s.%s of %s: encoding/gob in this interpreter sees the unexported field %s of %s as exported (the interpreter builds the struct with reflect), so it would %s it where Go's gob skips it; export the fields gob should keep, or %s a struct of only the exported ones",
				typ, fn.Name(), an(types.TypeString(t, shortQualifier)), field, st, intoVerb, remedy)
			return true
		}
		if iface != nil {
			c.Fail(call.Pos(), "%s.%s of a %s: encoding/gob cannot %s values of %s (an interface a cell declares) in this interpreter; use any instead (a []any, or a field of type any), with gob.Register of each concrete type, and assert back to %s",
				typ, fn.Name(), types.TypeString(t, shortQualifier), verb, iface.Obj().Name(), iface.Obj().Name())
		}
		return true
	})
}

// unexportedField is a struct type in t with a field Go's gob skips (its
// name unexported, embedded or not) and that field's name; "" if none. A
// type gob encodes by its own methods (GobEncode, MarshalBinary) is not
// looked into.
func unexportedField(t types.Type) (st, field string) {
	walkTypes(t, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		if field != "" {
			return false
		}
		if !ok || !typecheck.IsCellType(n) {
			return true
		}
		ms := types.NewMethodSet(types.NewPointer(n))
		for _, m := range []string{"GobEncode", "GobDecode", "MarshalBinary", "UnmarshalBinary"} {
			if ms.Lookup(nil, m) != nil {
				return false
			}
		}
		if s, ok := n.Underlying().(*types.Struct); ok {
			for i := range s.NumFields() {
				if f := s.Field(i); !f.Exported() && f.Name() != "_" {
					st, field = n.Obj().Name(), f.Name()
					return false
				}
			}
		}
		return true
	})
	return st, field
}
