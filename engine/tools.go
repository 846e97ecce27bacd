package engine

import (
	"go/ast"
	"go/constant"
	"reflect"
	"sort"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols"
	"grundy/engine/tooling"
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

// Globals lists the names cells declared, sorted.
func (it *Interp) Globals() []tooling.Global {
	out := make([]tooling.Global, 0, len(it.globals))
	vals := it.globalValues()
	for _, g := range it.globals {
		if g.Type == "" && (g.Kind == "var" || g.Kind == "const") {
			if v, ok := vals[g.Name]; ok && v.IsValid() {
				if _, isConst := v.Interface().(constant.Value); !isConst {
					g.Type = v.Type().String()
				}
			}
		}
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Packages maps the package names cells can use to their symbols.
func (it *Interp) Packages() map[string]tooling.PackageSymbols {
	out := map[string]tooling.PackageSymbols{}
	for name, path := range it.pkgs {
		key := path + "/" + importName(path)
		syms := stdlib.Symbols[key]
		if syms == nil {
			syms = symbols.Symbols[key]
		}
		if aliasPackages()[path] {
			syms = it.sourcePackageSymbols(path)
		}
		out[name] = tooling.PackageSymbols{Path: path, Symbols: syms}
	}
	return out
}

// sourcePackageSymbols lists an interpreted package's exported names.
func (it *Interp) sourcePackageSymbols(path string) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	pkg, err := typeUniverse().Import(path)
	if err != nil {
		return out
	}
	for _, name := range pkg.Scope().Names() {
		if ast.IsExported(name) {
			out[name] = reflect.Value{}
		}
	}
	return out
}

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

// TypeOf gives the type of an identifier or selector chain in the session.
func (it *Interp) TypeOf(expr string) (reflect.Type, bool) {
	v, ok := it.ValueOf(expr)
	if !ok {
		return nil, false
	}
	return v.Type(), true
}

// ValueOf evaluates a side-effect-free identifier or selector chain.
func (it *Interp) ValueOf(expr string) (reflect.Value, bool) {
	expr = strings.TrimSpace(expr)
	if expr == "" || !isSelectorChain(expr) {
		return reflect.Value{}, false
	}
	parts := strings.Split(expr, ".")
	var v reflect.Value
	if path, ok := it.pkgs[parts[0]]; ok && len(parts) > 1 {
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
		g, ok := it.globalValues()[parts[0]]
		if !ok || !g.IsValid() {
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
