package grundyrt

import (
	"reflect"
	"strings"
	"sync"
)

// renamedInstances are the names of the instances whose tags name another
// instance, by their reflect types' text (as reflect writes them, in
// panics' messages too): an instance a generic type's methods made while
// the engine made another with its name in the generic type's tag
// (Entry[Label, Heap] of Flip while Entry[Heap, Label] was made: see
// engine.makeTagged). Their fields tell them apart from the one named.
var renamedInstances sync.Map

// RenameInstance records name, as Go's runtime writes it, for the
// instance of reflect type rt (see renamedInstances).
func RenameInstance(rt reflect.Type, name string) {
	renamedInstances.Store(rt.String(), name)
}

// renamedInstance is the name RenameInstance recorded for the struct
// type whose text is s; "" if none.
func renamedInstance(s string) string {
	if name, ok := renamedInstances.Load(s); ok {
		return name.(string)
	}
	return ""
}

// The methods of instances of the generic struct types cells declare.
// The printer knows a type's methods by its name (Declare, Typed); a
// generic type's instance made in a generic function (Pair[K, V]{k, v} in
// mk[K, V]) is named by where its type arguments are (see instanceName),
// and its methods come from the function: compat's instanceMethods makes
// it ask, on entry,
//
//	var _grundyZero Pair[K, V]
//	if grundyrt.NewInstance(_grundyZero) {
//		grundyrt.InstanceMethods("main.Pair[K,V].String", func(v Pair[K, V]) string { ... }, ...)
//	}

// NewInstance reports whether v, a zero value of an instance of a generic
// struct type, is of an instance not met before (and notes it). (A value:
// yaegi v0.16.1 fails to compile (*Pair[K, V])(nil).)
func (ts *Types) NewInstance(v any) bool {
	rt := reflect.TypeOf(v)
	if rt == nil {
		return false
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.seen[rt] {
		return false
	}
	if ts.seen == nil {
		ts.seen = map[reflect.Type]bool{}
	}
	ts.seen[rt] = true
	return true
}

// InstanceMethods records methods as setMethods does, each under the name
// of the instance its closure's first parameter is of (or points to),
// not the one in its key (main.Pair[K,V], as the generic function wrote
// it). It returns true, for a package-level variable.
func (ts *Types) InstanceMethods(methods ...any) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var keyed []any
	for i := 0; i+1 < len(methods); i += 2 {
		key, _ := methods[i].(string)
		ft := reflect.TypeOf(methods[i+1])
		dot := strings.LastIndexByte(key, '.')
		if ft == nil || ft.Kind() != reflect.Func || ft.NumIn() == 0 || dot < 0 {
			continue
		}
		rt, ptr := ft.In(0), ""
		if rt.Kind() == reflect.Pointer {
			rt, ptr = rt.Elem(), "*"
		}
		name := structName(rt)
		if !strings.HasSuffix(name, "]") {
			continue
		}
		if name = ts.instanceName(rt, name); name != "" {
			keyed = append(keyed, ptr+name+key[dot:], methods[i+1])
		}
	}
	if len(keyed) > 0 {
		ts.setMethods(keyed)
		clear(ts.derived) // (an instance met before was known without its methods)
	}
	return true
}
