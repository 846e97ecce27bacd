package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// A function literal a cell stores in a session variable is compiled once,
// with the functions of the session as they are then: a later cell that
// declares one of them again recompiles the declared functions that call
// it, but cannot recompile a value. The session notes which variables hold
// such literals and what they call, and says so when a cell redefines one.

// noteClosures records the variables the cell's top-level statements
// assign function literals to, with the top-level names the literals use
// (globalRefs, as for the session's functions).
func (it *Interp) noteClosures(pc *parsedCell) {
	it.cellClosures = map[string]bool{}
	if pc.Stmts == nil {
		return
	}
	for _, st := range pc.Stmts.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || (as.Tok != token.DEFINE && as.Tok != token.ASSIGN) || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, r := range as.Rhs {
			id, isID := as.Lhs[i].(*ast.Ident)
			if !isID || id.Name == "_" {
				continue
			}
			it.cellClosures[id.Name] = true
			lit, isLit := r.(*ast.FuncLit)
			if !isLit {
				delete(it.closures, id.Name)
				continue
			}
			it.closures[id.Name], _ = globalRefs(lit.Body, it.info)
		}
	}
}

// noteStaleClosures says which variables of earlier cells hold literals
// that still call the earlier versions of the functions redefined.
func (it *Interp) noteStaleClosures(redefined map[string]bool) {
	for _, v := range sortedKeys(it.closures) {
		if it.cellClosures[v] {
			continue
		}
		var old []string
		for _, f := range sortedKeys(redefined) {
			if it.closures[v][f] {
				old = append(old, f)
			}
		}
		if len(old) > 0 {
			it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %s holds a function literal made before %s was declared again, and still calls the earlier one: run the cell that makes %s again",
				v, strings.Join(old, ", "), v)})
		}
	}
}
