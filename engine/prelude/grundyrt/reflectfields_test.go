package grundyrt

import (
	"reflect"
	"testing"
)

// TestReadOnly checks readOnly against reflect's own read-only field: a
// Go release that changes reflect.Value's flags must fail here.
func TestReadOnly(t *testing.T) {
	type s struct {
		Pub  int
		priv int
	}
	x := s{1, 2}
	v := reflect.ValueOf(&x).Elem()
	own := v.Field(1)
	mine := readOnly(v.Field(0))
	if mine.CanSet() != own.CanSet() || mine.CanInterface() != own.CanInterface() || mine.CanAddr() != own.CanAddr() {
		t.Fatalf("readOnly: CanSet %v CanInterface %v CanAddr %v; reflect's unexported field: %v %v %v",
			mine.CanSet(), mine.CanInterface(), mine.CanAddr(), own.CanSet(), own.CanInterface(), own.CanAddr())
	}
	if mine.Int() != 1 || v.Field(0).CanSet() != true {
		t.Fatal("readOnly changed the value, or the field it came from")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Interface of a read-only value did not panic")
		}
	}()
	_ = mine.Interface()
}

// TestEmbedReadOnly checks embedReadOnly against reflect's own embedded
// field of an unexported type: read-only itself, its exported fields not.
func TestEmbedReadOnly(t *testing.T) {
	type inner struct{ Pub, priv int }
	type s struct {
		inner
		Inner inner
	}
	x := s{}
	v := reflect.ValueOf(&x).Elem()
	own, mine := v.Field(0), embedReadOnly(v.Field(1))
	for _, c := range []struct {
		name      string
		own, mine reflect.Value
	}{{"field", own, mine}, {"its exported field", own.Field(0), mine.Field(0)}, {"its unexported field", own.Field(1), mine.Field(1)}} {
		if c.own.CanSet() != c.mine.CanSet() || c.own.CanInterface() != c.mine.CanInterface() {
			t.Errorf("%s: CanSet %v CanInterface %v; reflect's: %v %v", c.name, c.mine.CanSet(), c.mine.CanInterface(), c.own.CanSet(), c.own.CanInterface())
		}
	}
}
