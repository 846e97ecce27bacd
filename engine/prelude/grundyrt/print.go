package grundyrt

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// The builtins print and println, as Go's runtime writes them: to
// standard error (yaegi v0.16.1 writes them to standard output, through
// fmt), a float in its shortest form at its own size (runtime/print.go,
// printfloat32: float32(0.1) is 0.1), a pointer, channel, map or function
// as its address, operands of println separated by spaces.

// builtinPrinter writes the builtins' text to the session's standard error.
type builtinPrinter struct{ stderr func() io.Writer }

// Print is print (ln false) or println (ln true).
func (p builtinPrinter) Print(ln bool, args ...any) {
	io.WriteString(p.stderr(), printText(ln, args...))
}

// printText is what print or println writes for args.
func printText(ln bool, args ...any) string {
	var b strings.Builder
	for i, a := range args {
		if ln && i > 0 {
			b.WriteByte(' ')
		}
		printValue(&b, reflect.ValueOf(Unwrap(a)))
	}
	if ln {
		b.WriteByte('\n')
	}
	return b.String()
}

func printValue(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() { // a nil interface (an untyped nil is no operand)
		b.WriteString("(0x0,0x0)")
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, v.Type().Bits()))
	case reflect.Complex64, reflect.Complex128:
		b.WriteString(strconv.FormatComplex(v.Complex(), 'g', -1, v.Type().Bits()))
	case reflect.String:
		b.WriteString(v.String())
	case reflect.Slice:
		fmt.Fprintf(b, "[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		fmt.Fprintf(b, "%#x", v.Pointer())
	default: // (an interface's type and data words, in Go)
		fmt.Fprintf(b, "(%v)", v.Type())
	}
}
