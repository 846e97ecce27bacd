// The second file of every program TestDiff builds from a differential
// case (see engine/diff_program_test.go): the cell runner, the display of a
// trailing value, and the text of a panic as Go's runtime prints it.

package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// _diffRun runs one cell; a panic that leaves it is printed as the
// engine reports a failed cell, and the program goes on.
func _diffRun(cell func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("!! panic: " + _diffPanicText(r))
		}
	}()
	cell()
}

// _diffShow prints a cell's trailing value as the engine shows it;
// _diffShowCall, when the value is a call's.
func _diffShow(vs ...any) { _diffShowValues(false, vs) }

func _diffShowCall(vs ...any) { _diffShowValues(true, vs) }

func _diffShowValues(call bool, vs []any) {
	if n := len(vs); n > 1 {
		if e, ok := vs[n-1].(error); ok {
			fmt.Println("!! error: " + strings.SplitN(e.Error(), "\n", 2)[0])
			return
		}
		if vs[n-1] == nil {
			vs = vs[:n-1]
		}
	}
	if len(vs) == 1 {
		if e, ok := vs[0].(error); ok {
			fmt.Println("!! error: " + strings.SplitN(e.Error(), "\n", 2)[0])
			return
		}
		if call && vs[0] == nil {
			return
		}
	}
	text := make([]string, len(vs))
	for i, v := range vs {
		text[i] = fmt.Sprint(v)
	}
	fmt.Println(strings.Join(text, " "))
}

// _diffPanicText is what the runtime prints after "panic: " for r (see
// printpanicval in runtime/error.go), except that where it prints an
// address this prints the value.
func _diffPanicText(r any) string {
	switch v := r.(type) {
	case error:
		return _diffIndented(v.Error())
	case fmt.Stringer:
		return _diffIndented(v.String())
	}
	v := reflect.ValueOf(r)
	t := v.Type()
	var s string
	switch t.Kind() {
	case reflect.Bool:
		s = strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s = strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s = strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		s = strconv.FormatFloat(v.Float(), 'g', -1, t.Bits())
	case reflect.Complex64, reflect.Complex128:
		s = strconv.FormatComplex(v.Complex(), 'g', -1, t.Bits())
		if t.PkgPath() != "" {
			return t.String() + s
		}
		return s
	case reflect.String:
		if t.PkgPath() != "" {
			return t.String() + "(\"" + _diffIndented(v.String()) + "\")"
		}
		return _diffIndented(v.String())
	default:
		return fmt.Sprintf("(%v) %v", t, r)
	}
	if t.PkgPath() != "" {
		return t.String() + "(" + s + ")"
	}
	return s
}

// _diffIndented is s as the runtime prints a panic's text: each newline
// followed by a tab.
func _diffIndented(s string) string { return strings.ReplaceAll(s, "\n", "\n\t") }
