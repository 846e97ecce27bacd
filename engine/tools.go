package engine

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/compat"
	"grundy/engine/symbols"
	"grundy/engine/tooling"
	"grundy/engine/typecheck"
)

// Complete answers a completion request (see tooling.go).
func (it *Interp) Complete(code string, cursor int) Completion {
	it.mu.Lock()
	defer it.mu.Unlock()
	return tooling.Complete(it, code, cursor)
}

// Inspect answers an inspection request.
func (it *Interp) Inspect(code string, cursor int, detailLevel int) (Bundle, bool) {
	it.mu.Lock()
	defer it.mu.Unlock()
	return tooling.Inspect(it, code, cursor, detailLevel)
}

// IsComplete tells whether code is ready to run.
func (it *Interp) IsComplete(code string) (status, indent string) { return tooling.IsComplete(code) }

// Types is the session's type oracle, the tooling's view of its types.
func (it *Interp) Types() *typecheck.Session { return it.tc }

// lookupSymbol finds an exported symbol of a native package.
func lookupSymbol(key, name string) (reflect.Value, bool) {
	if m, ok := stdlib.Symbols[key]; ok {
		v, ok := m[name]
		return v, ok
	}
	if m, ok := symbols.Symbols[key]; ok {
		v, ok := m[name]
		return v, ok
	}
	return reflect.Value{}, false
}

// ValueOf evaluates a side-effect-free identifier or selector chain: the
// one question of the tooling that needs the live session, not its types.
func (it *Interp) ValueOf(expr string) (reflect.Value, bool) {
	expr = strings.TrimSpace(expr)
	if expr == "" || !isSelectorChain(expr) {
		return reflect.Value{}, false
	}
	parts := strings.Split(expr, ".")
	var v reflect.Value
	globals := it.globalValues()
	g, isVar := globals[parts[0]]
	if !isVar {
		g, isVar = globals[compat.RenamedVar(parts[0])]
	}
	if _, ok := it.tc.Lookup(parts[0]).(*types.Var); ok && isVar && g.IsValid() {
		v = g // (a variable named like a package)
		parts = parts[1:]
	} else if path, ok := it.pkgs[parts[0]]; ok && len(parts) > 1 {
		key, ok := symbolsHave(path)
		if !ok {
			return reflect.Value{}, false
		}
		sym, ok := lookupSymbol(key, parts[1])
		if !ok || !sym.IsValid() {
			return reflect.Value{}, false
		}
		if sym.Kind() == reflect.Pointer && sym.Type().Elem().Kind() != reflect.Struct && !sym.IsNil() {
			// exported variables come as pointers
			sym = sym.Elem()
		}
		v = sym
		parts = parts[2:]
	} else {
		if !isVar || !g.IsValid() {
			return reflect.Value{}, false
		}
		v = g
		parts = parts[1:]
	}
	for _, p := range parts {
		next, ok := member(v, p)
		if !ok {
			return reflect.Value{}, false
		}
		v = next
	}
	if !v.IsValid() {
		return reflect.Value{}, false
	}
	return v, true
}

func member(v reflect.Value, name string) (reflect.Value, bool) {
	if !v.IsValid() {
		return reflect.Value{}, false
	}
	if m := v.MethodByName(name); m.IsValid() {
		return m, true
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, false
		}
		v = v.Elem()
		if m := v.MethodByName(name); m.IsValid() {
			return m, true
		}
	}
	if v.Kind() == reflect.Struct {
		f := v.FieldByName(name)
		if !f.IsValid() && !ast.IsExported(name) {
			// yaegi builds a cell's struct with reflect.StructOf, which
			// cannot hold unexported fields: it stores field x as Xx.
			f = v.FieldByName("X" + name)
		}
		return f, f.IsValid()
	}
	return reflect.Value{}, false
}

func isSelectorChain(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}
