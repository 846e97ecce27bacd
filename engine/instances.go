package engine

import (
	"go/ast"
	"reflect"
	"strings"
	"unsafe"
)

// yaegi's cache of generic instances (its unexported field generic, a
// map[string]*node keyed by a name and type arguments: "Map[int]",
// "Stack[int]", "Pop[int]"), and what the engine does about its keys.

// forgetInstances drops yaegi's instances of the generic functions names:
// yaegi v0.16.1 caches an instance by the function's name and type
// arguments (interp/generic.go:152), so a generic function redefined by a
// cell, and the ones calling it, kept running their first definitions.
// The cache is a field yaegi does not export; without it, the session
// would have to be rebuilt, dropping variables of cell types.
func (it *Interp) forgetInstances(names map[string]bool) {
	if len(names) == 0 {
		return
	}
	it.dropInstances(func(key string, _ reflect.Value) bool {
		name, _, _ := strings.Cut(key, "[")
		return names[name]
	})
}

// forgetMethodInstances drops yaegi's instances of generic types'
// methods before a compilation: an instance type keeps its methods (they
// hang on the type, not on the cache), and a method instantiated by the
// compilation that declared it, keyed by its bare name ("Pop[int]", see
// keyGenericMethods), would otherwise stand for a generic function of
// that name (func Pop[T any]) instantiated later.
func (it *Interp) forgetMethodInstances() {
	it.dropInstances(func(_ string, n reflect.Value) bool { return isMethodNode(n) })
}

// isMethodNode says whether n, a yaegi *node the instance cache holds,
// is a method's declaration: a funcDecl whose first child, the receiver
// list, is not empty (a function's is; a type's first child is its
// name).
func isMethodNode(n reflect.Value) bool {
	if n.Kind() != reflect.Pointer || n.IsNil() {
		return false
	}
	child := n.Elem().FieldByName("child")
	if child.Kind() != reflect.Slice || child.Len() == 0 || child.Index(0).IsNil() {
		return false
	}
	recv := child.Index(0).Elem().FieldByName("child")
	return recv.Kind() == reflect.Slice && recv.Len() > 0
}

// dropInstances drops the entries of yaegi's cache of generic instances
// (its unexported field generic, a map[string]*node) for which drop,
// given the key and the node, is true; nothing if this yaegi has none.
func (it *Interp) dropInstances(drop func(key string, n reflect.Value) bool) {
	cache := it.instanceCache()
	if !cache.IsValid() {
		return
	}
	for _, k := range cache.MapKeys() {
		if drop(k.String(), cache.MapIndex(k)) {
			cache.SetMapIndex(k, reflect.Value{})
		}
	}
}

// instanceKeys are the keys of yaegi's cache of generic instances
// (Show[main.W]); none if this yaegi has none.
func (it *Interp) instanceKeys() []string {
	cache := it.instanceCache()
	if !cache.IsValid() {
		return nil
	}
	var keys []string
	for _, k := range cache.MapKeys() {
		keys = append(keys, k.String())
	}
	return keys
}

// instanceCache is yaegi's cache of generic instances, writable, or the
// zero Value.
func (it *Interp) instanceCache() reflect.Value {
	cache := yaegiField(reflect.ValueOf(it.yi).Elem(), "generic")
	if !cache.IsValid() || cache.Kind() != reflect.Map || cache.Type().Key().Kind() != reflect.String {
		return reflect.Value{}
	}
	return cache
}

// keyGenericMethods gives each method of the session's generic types a
// key of its own in yaegi's instance cache. yaegi v0.16.1 keys an
// instantiated method by the name in its declaration and the type
// arguments only (interp/generic.go:22, genAST's sname "Pop[int]"), so
// Stack[int] and Queue[int], both with Pop, got one compiled Pop between
// them (a compile error, a reflect.Set panic, or the other type's answer).
// The name yaegi looks a method up by is the declaration node's own
// (node.ident, set once by its global type analysis, interp/gta.go:151,
// and copied to each instance); the cache's is the name child's, read
// again for each instance. Once a compilation has declared a generic
// type's methods, the engine writes the type's name into the name child
// (Pop becomes Queue.Pop): the instances made by later compilations have
// keys of their own ("Queue.Pop[int]", never a generic function's, whose
// names have no dot), and name their frames Queue.Pop in a panic's stack.
// The compilation declaring the methods still keys them by their names:
// the methodtwins pass refuses twins it would make (see there).
func (it *Interp) keyGenericMethods() {
	scopes := yaegiField(reflect.ValueOf(it.yi).Elem(), "scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return
	}
	for _, k := range scopes.MapKeys() {
		syms := yaegiField(derefAll(scopes.MapIndex(k)), "sym")
		if !syms.IsValid() || syms.Kind() != reflect.Map {
			continue
		}
		for _, name := range syms.MapKeys() {
			typ := yaegiField(derefAll(syms.MapIndex(name)), "typ")
			t := derefAll(typ)
			if !t.IsValid() || fmtCat(yaegiField(t, "cat")) != "genericT" {
				continue
			}
			methods := yaegiField(t, "method")
			if methods.Kind() != reflect.Slice {
				continue
			}
			for i := range methods.Len() {
				child := yaegiField(derefAll(methods.Index(i)), "child")
				if child.Kind() != reflect.Slice || child.Len() < 2 {
					continue
				}
				ident := yaegiField(derefAll(child.Index(1)), "ident")
				if ident.Kind() != reflect.String || strings.Contains(ident.String(), ".") {
					continue
				}
				ident.SetString(name.String() + "." + ident.String())
			}
		}
	}
}

// yaegiField is the field name of v, a struct of yaegi's, made settable
// (yaegi exports none of them); the zero Value if v has none.
func yaegiField(v reflect.Value, name string) reflect.Value {
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanAddr() {
		return reflect.Value{}
	}
	return writable(f)
}

// writable is v (addressable) made settable, though it is, or is in, an
// unexported field of yaegi's.
func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// derefAll follows pointers from v to what they point to; the zero Value
// at a nil one.
func derefAll(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// fmtCat is the name of an itype's category (yaegi's tcat prints as
// "genericT", "structT", ...).
func fmtCat(v reflect.Value) string {
	if !v.IsValid() || !v.CanInterface() {
		return ""
	}
	if s, ok := v.Interface().(interface{ String() string }); ok {
		return s.String()
	}
	return ""
}

// declaresGenericMethods reports whether n, a compilation's syntax,
// declares a method of a generic type (func (s *Stack[T]) Push(v T)):
// only then has keyGenericMethods anything to do.
func declaresGenericMethods(n ast.Node) bool {
	f, ok := n.(*ast.File)
	if !ok {
		return false
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if ok && fd.Recv != nil && len(fd.Recv.List) > 0 && hasTypeArgs(fd.Recv.List[0].Type) {
			return true
		}
	}
	return false
}
