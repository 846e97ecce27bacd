package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/typecheck"
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
	it.noteRedeclaredClosures(pc)
	it.cellClosures = map[string]bool{}
	if pc.Stmts == nil {
		return
	}
	// (The cell's own top-level variables are the session's too, though
	// the oracle checks them in main's scope, where globalRefs does not
	// count them.)
	own := map[types.Object]bool{}
	for _, st := range pc.Stmts.List {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.BlockStmt:
				return false
			case *ast.Ident:
				if obj := it.info.Defs[n]; obj != nil {
					own[obj] = true
				}
			}
			return true
		})
	}
	refs := func(n ast.Node) map[string]bool {
		refs, _ := globalRefs(n, it.info)
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if own[it.info.Uses[n]] {
					refs[n.Name] = true
				}
			case *ast.SelectorExpr:
				refs["."+n.Sel.Name] = true // (see staleClosures)
			}
			return true
		})
		return refs
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
			switch r := r.(type) {
			case *ast.FuncLit:
				it.closures[id.Name] = refs(r.Body)
			case *ast.Ident: // a function (f := use)
				if it.globals[r.Name] == "func" {
					it.closures[id.Name] = refs(r)
					continue
				}
				delete(it.closures, id.Name)
			case *ast.IndexExpr: // an instance (f := Show[int]), or an element of a variable
				if _, ok := r.X.(*ast.Ident); ok {
					it.closures[id.Name] = refs(r)
					continue
				}
				delete(it.closures, id.Name)
			case *ast.SelectorExpr: // a method value or expression (get := acc.Get)
				if x, ok := r.X.(*ast.Ident); ok && (own[it.info.Uses[x]] || it.globals[x.Name] != "" && it.globals[x.Name] != "import") {
					it.closures[id.Name] = refs(r)
					continue
				}
				delete(it.closures, id.Name)
			default:
				delete(it.closures, id.Name)
			}
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

// noteRedeclaredClosures says which variables of earlier cells hold
// function literals using a variable the cell declares again as a new
// one: they go on using the earlier variable (a closure that summed data
// summed the old slice after data := ... again, silently). A variable the
// session's functions use, declared again with the same type, is
// assigned instead (compat's varInits), and so is one a := of several
// names declares again with the same type (compat's earlierReads); the
// closures see those.
func (it *Interp) noteRedeclaredClosures(pc *parsedCell) {
	fresh := map[string]string{} // name -> its earlier type
	again := func(id *ast.Ident, assigned bool) {
		old, _ := it.tc.Lookup(compat.SourceName(id.Name)).(*types.Var)
		now, _ := it.info.Defs[id].(*types.Var)
		if old != nil && now != nil && !(assigned && types.Identical(old.Type(), now.Type())) {
			fresh[id.Name] = typeName(old.Type())
		}
	}
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						again(id, true)
					}
				}
			}
		}
	}
	if pc.Stmts != nil {
		for _, st := range pc.Stmts.List {
			for _, id := range typecheck.DefinedIdents(st) {
				as, isDefine := st.(*ast.AssignStmt)
				again(id, isDefine && len(as.Lhs) > 1)
			}
		}
	}
	for _, name := range sortedKeys(fresh) {
		var holders []string
		for _, v := range sortedKeys(it.closures) {
			if it.closures[v][name] && fresh[v] == "" {
				holders = append(holders, v)
			}
		}
		who := strings.Join(holders, ", ")
		switch len(holders) {
		case 0:
		case 1:
			it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %s holds a function made before %s was declared again, which still uses the earlier %s (%s): run the cell that makes %s again",
				who, name, name, fresh[name], who)})
		default:
			it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %s hold functions made before %s was declared again, which still use the earlier %s (%s): run the cells that make them again",
				who, name, name, fresh[name])})
		}
	}
}

// A change is what a cell that rebuilds the session changes (see
// changedBy).
type change struct {
	names   map[string]bool // types (with the struct types embedding them) and functions declared again, and the functions using them
	methods map[string]bool // the names of the methods declared, and of those calling them
}

// changedBy is what cell, which rebuilds the session, changes.
func (it *Interp) changedBy(cell *ast.File) change {
	ch := change{names: map[string]bool{}, methods: map[string]bool{}}
	for _, d := range cell.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if _, _, isMethod := strings.Cut(compat.FuncKey(d), "."); isMethod {
				ch.methods[d.Name.Name] = true
			} else {
				ch.names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					maps.Copy(ch.names, it.embedders(ts.Name.Name))
				}
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for key, fd := range it.funcs {
			_, m, isMethod := strings.Cut(key, ".")
			if !isMethod && ch.names[key] || isMethod && ch.methods[m] {
				continue
			}
			if !ch.uses(fd.refs, func(m string) bool { return selects(fd.decl, m) }, nil) {
				continue
			}
			grew = true
			if isMethod {
				ch.methods[m] = true
			} else {
				ch.names[key] = true
			}
		}
	}
	return ch
}

// uses reports whether code naming refs, and selecting what sel says it
// selects, uses what ch changes; holds says whether a variable of refs
// holds a value of a type ch.names has (nil: none does).
func (ch change) uses(refs map[string]bool, sel func(string) bool, holds func(string, map[string]bool) bool) bool {
	for r := range refs {
		if ch.names[r] || holds != nil && holds(r, ch.names) {
			return true
		}
	}
	for m := range ch.methods {
		if sel(m) {
			return true
		}
	}
	return false
}

// staleClosures are the variables of earlier cells holding function
// literals or method values that use what ch changes (a type declared
// again, or a variable holding one of its values; a method declared,
// selected by name; a function declared again, or one using those):
// compiled by the interpreter being replaced, they go on running its
// code (w.M() with the method M had then), where the variables move to
// the new one.
func (it *Interp) staleClosures(ch change) map[string]bool {
	stale := map[string]bool{}
	for v, refs := range it.closures {
		if ch.uses(refs, func(m string) bool { return refs["."+m] }, it.varHolds) {
			stale[v] = true
		}
	}
	return stale
}

// varHolds reports whether name is a session variable whose values may
// hold a value of one of the cell types named in types.
func (it *Interp) varHolds(name string, names map[string]bool) bool {
	v, ok := it.tc.Lookup(name).(*types.Var)
	return ok && holds(v.Type(), func(t types.Type) bool {
		n, ok := t.(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" && names[n.Obj().Name()]
	})
}
