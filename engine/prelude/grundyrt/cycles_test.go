package grundyrt

import (
	"reflect"
	"testing"
)

// TestMendCycle builds two struct types as yaegi leaves a group without
// a root (Vertex{ First *Edge; Next *Vertex }, Edge{ To *Vertex; Next
// *Edge; Out map[string][]*Edge }, the wrong struct in Edge's fields),
// mends them, and stores values of the right types in the fields.
func TestMendCycle(t *testing.T) {
	placeholder := reflect.TypeOf(struct{}{})
	edge := reflect.StructOf([]reflect.StructField{
		{Name: "To", Type: reflect.PointerTo(placeholder)},
		{Name: "Next", Type: reflect.PointerTo(placeholder)},
		{Name: "Out", Type: reflect.MapOf(reflect.TypeOf(""), reflect.SliceOf(reflect.PointerTo(placeholder)))},
		{Name: "W", Type: reflect.TypeOf(0)},
	})
	vertex := reflect.StructOf([]reflect.StructField{
		{Name: "First", Type: reflect.PointerTo(edge)},
		{Name: "Next", Type: reflect.PointerTo(placeholder)},
		{Name: "Held", Type: placeholder}, // by value: its size differs, left alone
	})
	nilPtr := func(t reflect.Type) any { return reflect.Zero(reflect.PointerTo(t)).Interface() }
	if !MendCycle("0.1=Pa 0.2=b 1.0=Pa 1.1=Pb 1.2=M.SPb 1.3=.", nilPtr(vertex), nilPtr(edge)) {
		t.Fatal("MendCycle returned false")
	}
	for _, c := range []struct {
		s    reflect.Type
		i    int
		want reflect.Type
	}{
		{vertex, 0, reflect.PointerTo(edge)},
		{vertex, 1, reflect.PointerTo(vertex)},
		{vertex, 2, placeholder},
		{edge, 0, reflect.PointerTo(vertex)},
		{edge, 1, reflect.PointerTo(edge)},
		{edge, 2, reflect.MapOf(reflect.TypeOf(""), reflect.SliceOf(reflect.PointerTo(edge)))},
		{edge, 3, reflect.TypeOf(0)},
	} {
		if got := c.s.Field(c.i).Type; got != c.want {
			t.Errorf("field %d of %v: %v, want %v", c.i, c.s, got, c.want)
		}
	}
	v, e := reflect.New(vertex), reflect.New(edge)
	v.Elem().Field(1).Set(reflect.New(vertex))
	e.Elem().Field(1).Set(reflect.New(edge))
	e.Elem().Field(0).Set(v)
	e.Elem().Field(2).Set(reflect.MakeMap(edge.Field(2).Type))
	e.Elem().Field(2).SetMapIndex(reflect.ValueOf("x"), reflect.Append(reflect.MakeSlice(edge.Field(2).Type.Elem(), 0, 1), e))
	if e.Elem().Field(0).Elem().Field(1).Elem().Field(0).IsNil() != true {
		t.Error("a new vertex's First is not nil")
	}
}
