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
