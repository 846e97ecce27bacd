package helpers

import "grundy/engine/prelude/grundyrt"

// _grundyFmtHook turns slices (and maps) of cell-defined types with a
// String method into slices of their strings (a map printer), for fmt,
// which cannot see interpreted methods inside a slice or map. The engine
// assigns it as such types appear.
var _grundyFmtHook = func(v any) any { return v }

func _grundyFmtArg(v any) any { return _grundyFmtHook(v) }

// _grundyFmtSpread prepares the values of fmt.Println(xs...): native fmt
// got the interpreter's boxes of cell-typed values in a []any and printed
// their insides. Values with an interpreted Error or String method become
// formatters that print it where fmt would call it.
func _grundyFmtSpread(xs []any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		if !grundyrt.Interpreted(x) {
			out[i] = grundyrt.Unwrap(x)
		} else if s, ok := _grundyErr(x); ok {
			out[i] = grundyrt.FmtAs(x, s)
		} else if s, ok := _grundyString(x); ok {
			out[i] = grundyrt.FmtAs(x, s)
		} else {
			out[i] = grundyrt.Unwrap(_grundyFmtHook(x))
		}
	}
	return out
}
