package solve

import (
	"errors"
	"fmt"
	"html"
	"reflect"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

// Every method of a nil table says the table is missing because the
// call that made it failed: `t, _ := solve.Values(g, 99)` then
// `t.Count(0)` was a bare nil-pointer panic.
func TestNilTableSaysWhy(t *testing.T) {
	var nilTable *Table
	if _, err := Values(games.CN(6, 2), 99); err == nil {
		t.Fatal("CN(6,2) to 99 should be too large to solve")
	}
	v := reflect.ValueOf(nilTable)
	typ := v.Type()
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		args := []reflect.Value{v}
		for j := 1; j < m.Type.NumIn(); j++ {
			args = append(args, reflect.Zero(m.Type.In(j)))
		}
		if m.Type.IsVariadic() {
			args[len(args)-1] = reflect.ValueOf([]int{0})
		}
		var got error
		text := ""
		func() {
			defer func() {
				if r := recover(); r != nil {
					got, _ = r.(error)
					text = fmt.Sprint(r)
				}
			}()
			var out []reflect.Value
			if m.Type.IsVariadic() {
				out = m.Func.CallSlice(args)
			} else {
				out = m.Func.Call(args)
			}
			for _, o := range out {
				if e, ok := o.Interface().(error); ok && e != nil {
					got, text = e, e.Error()
				}
				if s, ok := o.Interface().(string); ok {
					text = html.UnescapeString(s)
				}
			}
		}()
		if !errors.Is(got, ErrNoTable) && !strings.Contains(text, ErrNoTable.Error()) {
			t.Errorf("nil table: %s gives %q, not ErrNoTable", m.Name, text)
		}
		if got != nil && !strings.Contains(text, "t."+m.Name) {
			t.Errorf("nil table: %s's message %q does not name the method", m.Name, text)
		}
	}
}

// At and IsP outside the table stop the cell with an error naming the
// table's shape (they returned -1, which a formula check can take for a
// value); Value returns the same error.
func TestAtOutsideTheTable(t *testing.T) {
	tab, err := Values(games.CN(3, 2), 4)
	if err != nil {
		t.Fatal(err)
	}
	shape := "CN(3,2) values, 3 heaps of 0..4"
	for _, tc := range []struct {
		pos  []int
		want string
	}{
		{[]int{1, 2}, "position (1,2) has 2 heaps"},
		{[]int{1, 2, 3, 4}, "has 4 heaps"},
		{[]int{1, 2, 9}, "heap 3 of (1,2,9) is 9, beyond"},
		{[]int{-1, 0, 0}, "heap 1 of (-1,0,0) is negative"},
	} {
		for _, method := range []string{"At", "IsP"} {
			var msg string
			func() {
				defer func() { msg = fmt.Sprint(recover()) }()
				if method == "At" {
					tab.At(tc.pos...)
				} else {
					tab.IsP(tc.pos...)
				}
			}()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, shape) || !strings.Contains(msg, "t."+method+"(") {
				t.Errorf("%s%v: %q, want the position, %q and %q", method, tc.pos, msg, tc.want, shape)
			}
		}
		if _, err := tab.Value(games.Pos(tc.pos)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), shape) {
			t.Errorf("Value(%v): %v", tc.pos, err)
		}
	}
	if v, err := tab.Value(games.Pos{1, 1, 2}); err != nil || tab.At(1, 1, 2) != v {
		t.Errorf("At(1, 1, 2) = %d inside the table, Value %d, %v", tab.At(1, 1, 2), v, err)
	}
}
