package grundyrt

import (
	"reflect"
	"testing"
	"time"

	"grundy/stdlib/solve"
)

// A library value with its own MarshalJSON or MarshalText is handed to
// encoding/json as it is, not walked field by field.
func TestNativeMarshaler(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{&solve.Certificate{}, true},
		{solve.Certificate{}, false}, // MarshalJSON is on the pointer
		{time.Time{}, true},
		{&solve.Table{}, false},
		{3, false},
		{struct{ A int }{1}, false},
	} {
		if got := nativeMarshaler(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("nativeMarshaler(%T) = %v, want %v", c.v, got, c.want)
		}
	}
}
