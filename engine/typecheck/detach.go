package typecheck

import (
	"go/types"
	"reflect"
	"slices"
	"unsafe"
)

// attachedMethod is a method a check added to an earlier cell's type.
type attachedMethod struct {
	named *types.Named
	fn    *types.Func
}

// removeMethod takes fn off the methods declared for named, a type that is
// not generic (go/types has AddMethod and nothing to undo it: the list is
// its unexported field methods). It reports whether it did; a go/types
// whose Named keeps its methods otherwise leaves them (TestRemoveMethod
// fails there).
func removeMethod(named *types.Named, fn *types.Func) bool {
	f := reflect.ValueOf(named).Elem().FieldByName("methods")
	if !f.IsValid() || f.Type() != reflect.TypeFor[[]*types.Func]() || named.TypeParams().Len() > 0 || named.Origin() != named {
		return false
	}
	methods := (*[]*types.Func)(unsafe.Pointer(f.UnsafeAddr()))
	i := slices.Index(*methods, fn)
	if i < 0 {
		return false
	}
	*methods = slices.Delete(slices.Clone(*methods), i, i+1)
	return true
}
