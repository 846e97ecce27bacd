package engine

import (
	"fmt"
	"go/ast"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// unavailableAPIs are the generic functions and types of standard packages
// that the engine cannot provide: yaegi's symbol tables cannot hold generic
// code, and these packages are native (the engine's own iter, slices, maps
// and cmp are source and have everything). Each says what to do instead;
// a cell that uses one is refused before it runs.
var unavailableAPIs = map[string]struct{ since, instead string }{
	"crypto/hkdf.Expand":           {"1.24", "compute HKDF (RFC 5869) with crypto/hmac"},
	"crypto/hkdf.Extract":          {"1.24", "compute HKDF (RFC 5869) with crypto/hmac"},
	"crypto/hkdf.Key":              {"1.24", "compute HKDF (RFC 5869) with crypto/hmac"},
	"crypto/pbkdf2.Key":            {"1.24", "compute PBKDF2 (RFC 8018) with crypto/hmac"},
	"database/sql.Null":            {"1.22", "use sql.NullString, sql.NullInt64 or another Null type"},
	"hash/maphash.Comparable":      {"1.24", "hash the value's bytes with maphash.String(seed, s) or maphash.Bytes(seed, b)"},
	"hash/maphash.WriteComparable": {"1.24", "write the value's bytes with h.WriteString(s) or h.Write(b)"},
	"reflect.TypeAssert":           {"1.25", "write v.Interface().(T)"},
	"runtime.AddCleanup":           {"1.24", "use runtime.SetFinalizer(ptr, func(p *T) { ... })"},
	"weak.Make":                    {"1.24", "use an ordinary pointer"},
	"weak.Pointer":                 {"1.24", "use an ordinary pointer"},
}

// checkUnavailable refuses a cell that names an unavailable API, in one
// line naming it and what to write instead.
func (it *Interp) checkUnavailable(pc *parsedCell) error {
	names := map[string]string{} // package name in the cell -> path
	for n, p := range it.pkgs {
		names[n] = p
	}
	// The cell's imports, automatic ones included (the parser's
	// File.Imports does not have those).
	if pc.Imports != nil {
		for _, d := range pc.Imports.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				is := s.(*ast.ImportSpec)
				path, _ := strconv.Unquote(is.Path.Value)
				name := typecheck.ImportName(path)
				if is.Name != nil && is.Name.Name == "." {
					// The interpreter's imports bind a name; the cell's
					// uses of the package's names were "undefined".
					msg := fmt.Sprintf("%s: import . %q: dot imports are not available in cells; import %q and qualify its names (%s.Name)",
						it.fset.Position(is.Pos()), path, path, name)
					return &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
				}
				if is.Name != nil {
					name = is.Name.Name
				}
				names[name] = path
			}
		}
	}
	var nodes []ast.Node
	if pc.Decls != nil {
		nodes = append(nodes, pc.Decls)
	}
	if pc.Stmts != nil {
		nodes = append(nodes, pc.Stmts)
	}
	var bad *EvalError
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || bad != nil {
				return bad == nil
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			path, ok := names[pkg.Name]
			if !ok {
				// weak.Make without the import: the package is not
				// imported for the cell (the interpreter has none), and
				// "undefined: unique" would not say why.
				if _, declared := it.globals[pkg.Name]; declared {
					return true
				}
				if _, whole := unavailablePackage(pkg.Name); !whole {
					return true
				}
				path = pkg.Name
			}
			key := path + "." + sel.Sel.Name
			api, ok := unavailableAPIs[key]
			if !ok {
				return true
			}
			msg := fmt.Sprintf("%s: %s.%s (generic, Go %s) is not available in this engine; instead, %s",
				it.fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name, api.since, api.instead)
			bad = &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
			return false
		})
	}
	if bad != nil {
		return bad
	}
	return nil
}

// unavailablePackage is the refusal of the standard package at path
// when the interpreter has no table for it and its API is among
// unavailableAPIs (weak: generic throughout).
func unavailablePackage(path string) (string, bool) {
	if slices.Contains(prelude.StandardPackages(typecheck.ImportName(path)), path) {
		return "", false
	}
	for _, key := range sortedKeys(unavailableAPIs) {
		if api := unavailableAPIs[key]; strings.HasPrefix(key, path+".") {
			return fmt.Sprintf("package %s (generic, Go %s) is not available in this engine; instead, %s", path, api.since, api.instead), true
		}
	}
	return "", false
}
