package games

import (
	"reflect"
	"testing"
)

// The notebook's interpreter (yaegi v0.16.1, typeAssert) reads the first
// field of a struct held in a Game when a cell asserts on it, and panics
// on a struct without fields: every game the library hands out as a
// struct value must have one.
func TestGameStructsHaveAField(t *testing.T) {
	gs := []Game{
		Wythoff(), CN(3, 2), Nim(2), Octal("0.77"), Subtraction(1, 2), Grundy(),
		Slow(CN(3, 2)), Exact(CN(3, 2)), Subtract(CN(3, 2), 1), Sum(Nim(1), Nim(1)),
		Func("f", 1, func(Pos) []Pos { return nil }),
	}
	for _, g := range gs {
		v := reflect.ValueOf(g)
		if v.Kind() == reflect.Struct && v.NumField() == 0 {
			t.Errorf("%s is a %s without fields", g.Name(), v.Type())
		}
	}
}
