package compat

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"grundy/engine/prelude"
)

// nativeMethods are the methods through which native packages act on
// values (fmt's, errors', encoding/json's), with their signatures as
// sigString writes them. yaegi v0.16.1 gives the types cells declare no
// methods native code can see (interp/type.go, refType builds them with
// reflect, which cannot add methods), so the session registers closures
// calling them (CellMethods) and the runtime calls those.
var nativeMethods = []struct{ name, sig string }{
	{"Format", "(fmt.State, rune)"},
	{"GoString", "() string"},
	{"Error", "() string"},
	{"String", "() string"},
	{"Is", "(error) bool"},
	{"As", "(any) bool"},
	{"Unwrap", "() error"},
	{"Unwrap", "() []error"},
	{"MarshalJSON", "() ([]byte, error)"},
	{"UnmarshalJSON", "([]byte) error"},
	{"MarshalText", "() ([]byte, error)"},
	{"UnmarshalText", "([]byte) error"},
	{"IsZero", "() bool"},
}

// CellMethods are, as source, the arguments that give the runtime the
// methods native packages call (nativeMethods) of the named type t,
// written src in the cell: pairs of a key ("main.T.String",
// "*main.T.String" for the pointer's method set) and a closure calling
// the method, the receiver first.
func CellMethods(t *types.Named, src string) []string {
	name := reflectName(t, false)
	var out []string
	for _, ptr := range []bool{false, true} {
		recv, key := src, name
		var tt types.Type = t
		if ptr {
			recv, key, tt = "*"+src, "*"+name, types.NewPointer(t)
		}
		ms := types.NewMethodSet(tt)
		for _, m := range nativeMethods {
			sel := ms.Lookup(nil, m.name)
			if sel == nil {
				continue
			}
			sig := sel.Type().(*types.Signature)
			if sigString(sig) != m.sig {
				continue
			}
			// (Parameters named as no cell names a variable: yaegi
			// takes a package-level variable of the same name for
			// them here.)
			params := []string{prelude.Temp + "V " + recv}
			var args []string
			for i := range sig.Params().Len() {
				p := fmt.Sprintf("%sA%d", prelude.Temp, i)
				args = append(args, p)
				pt := typeSource(sig.Params().At(i).Type())
				if pt == "fmt.State" {
					pt = prelude.Runtime + "." + prelude.RTFmtState
				}
				params = append(params, p+" "+pt)
			}
			results := resultsSource(sig)
			body := fmt.Sprintf("%sV.%s(%s)", prelude.Temp, m.name, strings.Join(args, ", "))
			if results != "" {
				body = "return " + body
			}
			fn := fmt.Sprintf("func(%s) %s { %s }", strings.Join(params, ", "), results, body)
			out = append(out, strconv.Quote(key+"."+m.name), fn)
		}
	}
	return out
}

// CellMethodNames are, as source, the arguments that tell the runtime the
// names of t's other methods (those CellMethods does not give): pairs of a
// key, as CellMethods writes it, and the method's signature
// (methodSignature: for grundyrt's LaterMethods). A value of a type on a basic
// type in a native interface without String (a games.Game holding a
// type Lbl int) is in a wrapper that keeps the bare int and names only
// the interface's methods, Name, Heaps...: by them the printer finds the
// one type it can be (the oracle refuses where two could: twinsIn) and
// prints it with its String, as Go does. Unexported methods are named
// too: a type with methods has a table then, by which the runtime tells
// that it has no Error (grundyrt's LacksError).
func CellMethodNames(t *types.Named) []string {
	name := reflectName(t, false)
	native := map[string]bool{}
	for _, m := range nativeMethods {
		native[m.name] = true
	}
	var out []string
	for _, ptr := range []bool{false, true} {
		key, tt := name, types.Type(t)
		if ptr {
			key, tt = "*"+name, types.NewPointer(t)
		}
		ms := types.NewMethodSet(tt)
		for i := range ms.Len() {
			if m := ms.At(i).Obj(); !native[m.Name()] {
				out = append(out, strconv.Quote(key+"."+m.Name()), strconv.Quote(methodSignature(m.Type())))
			}
		}
	}
	return out
}

// methodSignature is a method's signature without its receiver and
// parameter names, its types named by their packages' paths
// (func(grundy/stdlib/games.Pos) []grundy/stdlib/games.Pos): the same
// string for an interface's method and a type's that implements it.
func methodSignature(t types.Type) string {
	sig, ok := t.(*types.Signature)
	if !ok {
		return ""
	}
	unnamed := func(tu *types.Tuple) *types.Tuple {
		vs := make([]*types.Var, tu.Len())
		for i := range vs {
			vs[i] = types.NewParam(token.NoPos, nil, "", tu.At(i).Type())
		}
		return types.NewTuple(vs...)
	}
	plain := types.NewSignatureType(nil, nil, nil, unnamed(sig.Params()), unnamed(sig.Results()), sig.Variadic())
	return types.TypeString(plain, func(p *types.Package) string { return p.Path() })
}

// sigString writes a signature's types as nativeMethods does.
func sigString(sig *types.Signature) string {
	var ps []string
	for i := range sig.Params().Len() {
		ps = append(ps, typeSource(sig.Params().At(i).Type()))
	}
	if sig.Variadic() {
		return ""
	}
	s := "(" + strings.Join(ps, ", ") + ")"
	if r := resultsSource(sig); r != "" {
		s += " " + r
	}
	// A library's method has uint8 for byte: the oracle's packages are
	// made from the interpreter's symbol tables, which reflect writes so
	// (time.Time's MarshalJSON, promoted to a cell struct embedding it,
	// was not given to the runtime, and json ignored it).
	return byteNames.ReplaceAllStringFunc(s, func(w string) string {
		if w == "uint8" {
			return "byte"
		}
		return "rune"
	})
}

var byteNames = regexp.MustCompile(`\b(uint8|int32)\b`)

func resultsSource(sig *types.Signature) string {
	var rs []string
	for i := range sig.Results().Len() {
		rs = append(rs, typeSource(sig.Results().At(i).Type()))
	}
	switch len(rs) {
	case 0:
		return ""
	case 1:
		return rs[0]
	}
	return "(" + strings.Join(rs, ", ") + ")"
}

// typeSource writes a type of nativeMethods' signatures (predeclared or
// of package fmt); others come out qualified by their package path, which
// matches none.
func typeSource(t types.Type) string {
	if types.Identical(t, types.NewInterfaceType(nil, nil)) {
		return "any"
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "fmt" {
			return "fmt"
		}
		return p.Path()
	})
}

// eachNamed calls f with each named type in t's structure: t, and those
// reached through pointers, elements, map keys, fields and the underlying
// types of named types (each once).
func eachNamed(t types.Type, f func(*types.Named)) {
	eachType(t, func(t types.Type) {
		if n, ok := t.(*types.Named); ok {
			f(n)
		}
	})
}

// EachNamed is eachNamed, for the engine (the instances it tells the
// printer about).
func EachNamed(t types.Type, f func(*types.Named)) { eachNamed(t, f) }

// eachType calls f with each type in t's structure, as eachNamed walks it.
func eachType(t types.Type, f func(types.Type)) {
	walkTypes(t, func(t types.Type) bool { f(t); return true })
}

// walkTypes is eachType where f says whether to walk into the type.
func walkTypes(t types.Type, f func(types.Type) bool) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		t = types.Unalias(t)
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !f(t) {
			return
		}
		switch u := t.(type) {
		case *types.Named:
			walk(u.Underlying())
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				walk(u.Field(i).Type())
			}
		}
	}
	walk(t)
}
