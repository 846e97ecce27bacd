package engine

import (
	"go/ast"
	"go/token"
	"reflect"
)

// markGlobalDefines marks as package variables the names a cell's
// top-level statement of several names defines from one value (t, _ :=
// solve.Values(g, 9); v, ok := m[k]; x, err := strconv.Atoi(s)).
//
// yaegi v0.16.1 declares such names in its global analysis without its
// symbol's global flag (interp/gta.go, defineXStmt, by compDefineX), which
// a single name's := and var declarations have: a function of a later cell
// then reads the variable by counting frames up from its own, which gives
// the package's frame only when it is called from a cell's statements.
// Called from a function literal (func() { check() }(), a loop's body
// the engine runs as one) it read another frame's slot: t.At panicked
// "index out of range", a *strings.Reader was nil. The flag makes every
// later reader take the package's frame, where the statement put the
// value (the cell's own statements, compiled already, read it there too).
func (it *Interp) markGlobalDefines(block *ast.BlockStmt) {
	var names []string
	for _, st := range block.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
			continue
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
				names = append(names, id.Name)
			}
		}
	}
	if len(names) == 0 {
		return
	}
	defer func() { recover() }() // (a later yaegi with other fields: nothing to mark)
	syms := it.mainSymbols()
	if !syms.IsValid() {
		return
	}
	for _, name := range names {
		sym := syms.MapIndex(reflect.ValueOf(name))
		if !sym.IsValid() || sym.Kind() != reflect.Pointer || sym.IsNil() {
			continue
		}
		g := sym.Elem().FieldByName("global")
		if g.IsValid() && g.Kind() == reflect.Bool {
			writable(g).SetBool(true)
		}
	}
}
