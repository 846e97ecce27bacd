package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// numConvs: numeric conversions that yaegi v0.16.1 makes through reflect
// (interp/run.go, convert: reflect.Value.Convert) where reflect's
// conversion is not gc's, and go run's is the oracle. The value is
// converted by a native function, compiled by gc (grundyrt's
// conversions.go):
//
//	int32(f)    =>  int32(grundyrt.FloatToInt32(f))
//	Small(g)    =>  Small(grundyrt.FloatToInt32(float64(g)))  // g a float32
//	float32(n)  =>  float32(grundyrt.IntToFloat32(int64(n)))  // n an int
//
// The conversions so made:
//
//   - a float to an integer type narrower than 64 bits (int32(f),
//     uint8(x*255), rune(g), Small(f) with type Small int32): reflect
//     converts to int64 and keeps the low bits, so int32(1e100) was 0 and
//     int32(-2147483649.0) 2147483647, where gc on amd64 gives -2147483648
//     (a 32-bit conversion) and int16 and uint8 of them 0 (gc converts
//     those through int32 too). The spec leaves a value out of range to
//     the implementation. A value of a type parameter whose types are all
//     floats converts as a float64 (int32(x), x a T ~float64).
//
//   - a 64-bit integer (int, int64, uint, uint64, uintptr) to float32:
//     reflect rounds to float64, then to float32, and float32(1<<60 +
//     1<<36 + 1) was 1.1529215e+18 where Go's one rounding gives
//     1.1529216e+18.
//
// Conversions to int, int64, uint64 and uintptr, to float64, and from
// narrower integers to float32 are reflect's, which are gc's, and stay. A
// constant converts at compile time; a conversion to a type parameter
// (T(f)) is left to the interpreter. The native call costs about a
// quarter of a microsecond: a loop doing nothing but int32(f*x) a million
// times ran 1.7 times as long (grundy run, side by side).
var numConvs = Pass{
	Name:     "numconvs",
	Run:      runNumConvs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"float_to_narrow_int_out_of_range", "int64_to_float32_rounds_once"},
}

func runNumConvs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() || !c.Types.IsType(call.Fun) {
			return true
		}
		arg := call.Args[0]
		at, ok := c.Types.Types[arg]
		if !ok || at.Value != nil {
			return true
		}
		if fn, param := gcConversion(c.Types.TypeOf(call.Fun), at.Type); fn != "" {
			x := arg
			if !types.Identical(at.Type, param) {
				x = &ast.CallExpr{Fun: ident(param.String(), arg.Pos()), Lparen: arg.Pos(), Args: []ast.Expr{arg}, Rparen: arg.End()}
			}
			call.Args[0] = rtCall(fn, arg.Pos(), x)
		}
		return true
	})
}

// gcConversion is the grundyrt function converting a value of type from
// to type to as gc does, and the basic type it takes; "" when reflect's
// conversion is gc's.
func gcConversion(to, from types.Type) (string, types.Type) {
	if to == nil || from == nil {
		return "", nil
	}
	if _, ok := to.(*types.TypeParam); ok {
		return "", nil
	}
	b, ok := to.Underlying().(*types.Basic)
	if !ok {
		return "", nil
	}
	if name := narrowInts[b.Kind()]; name != "" && floatOrFloatParam(from) {
		return prelude.RTFloatTo + name, types.Typ[types.Float64]
	}
	if b.Kind() != types.Float32 {
		return "", nil
	}
	if _, ok := from.(*types.TypeParam); ok {
		return "", nil
	}
	f, ok := from.Underlying().(*types.Basic)
	if !ok {
		return "", nil
	}
	switch f.Kind() {
	case types.Int, types.Int64:
		return prelude.RTIntToFloat32, types.Typ[types.Int64]
	case types.Uint, types.Uint64, types.Uintptr:
		return prelude.RTUintToFloat32, types.Typ[types.Uint64]
	}
	return "", nil
}

// narrowInts names the integer types narrower than 64 bits by kind (rune
// is an Int32, byte a Uint8).
var narrowInts = map[types.BasicKind]string{
	types.Int8: "Int8", types.Int16: "Int16", types.Int32: "Int32",
	types.Uint8: "Uint8", types.Uint16: "Uint16", types.Uint32: "Uint32",
}

// floatOrFloatParam reports whether t is a float type or a type parameter
// whose types are all floats.
func floatOrFloatParam(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return typeSetAll(tp.Constraint(), func(b *types.Basic) bool { return b.Info()&types.IsFloat != 0 })
	}
	return isFloatType(t)
}
