package engine

import (
	"go/ast"
	"go/types"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"grundy/engine/compat"
)

// What a cell that fails to compile leaves. yaegi v0.16.1 declares a
// cell's names (functions, types, variables, the top-level x := ...) in
// the session's scope as it compiles the cell, before it finds the error,
// so a failed cell left its half-compiled declarations in place of the
// earlier ones: after x := 5, a failing x := "s" + 1 left a new x, and a
// later cell printed 0, silently. The engine puts the earlier symbols back
// (symbolsBefore); functions declared again are compiled again as they
// were (runDecls).
//
// Methods whose cell failed. yaegi v0.16.1 adds a method to its type while
// it compiles the cell's declarations, before it compiles the method's
// body: a method that fails to compile (a type error in its body) stays
// on the type, half compiled, and a later cell calling it compiled and
// panicked at run time ("index out of range [1] with length 0"), even
// after the method's cell was fixed and run again (the interpreter keeps
// the first declaration of a method). So the engine notes such methods:
// a cell declaring one again makes a new interpreter (as a method that
// changes does: changesTypes, rebuild), and a cell calling one, which the
// type oracle finds undefined (typecheck drops what a failed cell added),
// is refused before it runs.

// noteBrokenMethods notes the methods of f, declarations the interpreter
// failed to compile, of types earlier cells declared: the interpreter may
// have added them to their types (it has when the body is at fault).
func (it *Interp) noteBrokenMethods(f *ast.File) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		key := compat.FuncKey(fd)
		base, _, _ := strings.Cut(key, ".")
		if _, ok := it.funcs[key]; ok || it.types[base] == nil {
			continue
		}
		if it.broken == nil {
			it.broken = map[string]bool{}
		}
		it.broken[key] = true
	}
}

var noSuchMethod = regexp.MustCompile(`(?:has no field or method|missing method) (\w+)\)?$`)

// brokenCall is the refusal of a cell calling a method noteBrokenMethods
// noted, from the oracle's error; nil if it calls none.
func (it *Interp) brokenCall() *EvalError {
	if len(it.broken) == 0 || it.info == nil {
		return nil
	}
	for _, e := range it.info.Errors {
		m := noSuchMethod.FindStringSubmatch(e.Error())
		if m == nil {
			continue
		}
		for key := range it.broken {
			if strings.HasSuffix(key, "."+m[1]) {
				msg := earlierQualifier.ReplaceAllString(e.Error(), "$1") + " (the cell declaring " + key + " failed; run it again once it is fixed)"
				return &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
			}
		}
	}
	return nil
}

// symbolsBefore notes the interpreter's symbols of the names the cell
// declares, and returns what puts them back: the earlier symbol, or none
// for a name the session did not have.
func (it *Interp) symbolsBefore(pc *parsedCell) (restore func()) {
	names, _ := cellNames(pc)
	type saved struct {
		syms reflect.Value // a scope's symbol table, writable
		name reflect.Value
		sym  reflect.Value // invalid: none
		was  reflect.Value // what sym pointed to (a copy): yaegi changes a constant's symbol in place
	}
	var all []saved
	scopes := yaegiField(reflect.ValueOf(it.yi).Elem(), "scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return func() {}
	}
	for _, k := range scopes.MapKeys() {
		sc := derefAll(scopes.MapIndex(k))
		syms := yaegiField(sc, "sym")
		if !syms.IsValid() || syms.Kind() != reflect.Map || !syms.CanAddr() {
			continue
		}
		syms = writable(syms)
		for name := range names {
			n := reflect.ValueOf(name)
			sym := syms.MapIndex(n)
			var was reflect.Value
			if sym.IsValid() && sym.Kind() == reflect.Pointer && !sym.IsNil() {
				was = reflect.New(sym.Type().Elem()).Elem()
				was.Set(writable(sym.Elem()))
			}
			all = append(all, saved{syms, n, sym, was})
		}
	}
	return func() {
		for _, s := range all {
			if s.was.IsValid() {
				writable(s.sym.Elem()).Set(s.was)
			}
			s.syms.SetMapIndex(s.name, s.sym)
		}
	}
}

// missingMethodError is the oracle's error where the cell uses a value as
// an interface its type does not implement (return Lost{turn} as an error
// in the cell before the one declaring Lost's Error method): Go refuses
// the cell. yaegi v0.16.1 compiled it, and the value went into the
// interface without the method, which a later cell declared: the error
// printed <nil>, errors.As found a nil *Illegal, and a []error of them
// panicked "method not found: Error", silently wrong or late.
func (it *Interp) missingMethodError() *EvalError {
	return it.typeError(func(e types.Error) bool {
		return strings.Contains(e.Msg, "does not implement") && strings.Contains(e.Msg, "(missing method ")
	})
}

// genericBodyError is the first type error the oracle found in the body of
// a generic function or method the cell declares: yaegi compiles such a
// body only where it instantiates it, so a generic method calling a method
// no cell had declared yet (Walk calling t.walk, declared in the next
// cell) compiled, and the call of Walk panicked "index out of range [0]
// with length 0" in a later cell; such a cell is refused, as Go refuses it.
func (it *Interp) genericBodyError(pc *parsedCell) *EvalError {
	if pc.Decls == nil || it.info == nil || len(it.info.Errors) == 0 {
		return nil
	}
	var bodies []*ast.BlockStmt
	for _, d := range pc.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if ok && fd.Body != nil && !slices.Contains(pc.replayed, fd) && (fd.Type.TypeParams != nil || fd.Recv != nil && it.isGenericRecv(fd)) {
			bodies = append(bodies, fd.Body)
		}
	}
	if len(bodies) == 0 {
		return nil
	}
	return it.typeError(func(e types.Error) bool {
		return e.Fset == it.fset && slices.ContainsFunc(bodies, func(b *ast.BlockStmt) bool { return b.Pos() <= e.Pos && e.Pos < b.End() })
	})
}
