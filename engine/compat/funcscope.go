package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"grundy/engine/typecheck"
)

// funcScope: a top-level compound statement (a loop, if, switch, select or
// block) runs as the body of a function literal, func() { s }(), when
// yaegi v0.16.1 would get one of the names it declares in a nested scope
// wrong there:
//
//   - what yaegi declares only in a function or at package level: "a, b
//     := f()", "var a, b = f()", local types and constants, the variable
//     of a type switch. The global analysis skips nested blocks
//     (interp/gta.go:37, "skip statement block if not the entry point")
//     and the compiler leaves such declarations to it, so they ended up
//     undefined.
//   - a name that shadows one visible outside (a session variable, a name
//     the cell declares at top level, a package, a builtin, or the same
//     name in an enclosing block): in the global scope, yaegi's ":=" and
//     "var" look the name up and reuse what they find (interp/cfg.go:681,
//     "Do not overload existing symbols (defined in GTA) in global
//     scope"), so "{ x := 2 }" assigned the session's x, and with another
//     type panicked in reflect.Set.
//   - a name an earlier top-level compound statement of the cell, or of
//     an earlier cell, declared in its own nested scope ("for i :=
//     uint8(0); ..." then "for i := 0; ..."): the global analysis walks
//     into loops, ifs and switches (it skips only blocks) and declares
//     their variables as globals, so the second "i" reused the first
//     one's and its arithmetic panicked in reflect.Set (the session keeps
//     the names: Session.NestedGlobals; "if k := 2.5; ..." in one cell,
//     "{ k := 3 }" in the next panicked alike).
//
// In a function, every block has its own scope, as in Go. Defers at top
// level have been handed to the session by then (cellDefers), so they
// still run when the cell ends; a statement that jumps out of itself with
// goto cannot move into a function: a name it declares that shadows one
// of the top level is renamed in it (i := 5; for i := 0; ... { goto out }
// printed the loop's i for the outer one; a name only an earlier
// statement's block declared, out of scope in Go by then, is left to
// share its place).
var funcScope = Pass{
	Name: "funcscope",
	Run:  runFuncScope,
	Snippets: []string{"scope_define_in_for_block", "scope_define_in_if_block", "scope_define_nested_var_type",
		"scope_shadow_block", "scope_shadow_other_type", "scope_shadow_across_cells", "scope_sibling_loops_other_type", "scope_shadow_goto_renamed"},
}

func runFuncScope(c *Cell) {
	var outer map[string]bool    // the cell's top-level names, once needed
	earlier := map[string]bool{} // names earlier compound statements left at top level declared nested
	if c.Session != nil {
		maps.Copy(earlier, c.Session.NestedGlobals())
	}
	defer func() {
		for name := range earlier {
			if c.Session == nil || !c.Session.NestedGlobals()[name] {
				if c.NestedGlobals == nil {
					c.NestedGlobals = map[string]bool{}
				}
				c.NestedGlobals[name] = true
			}
		}
	}()
	for _, b := range c.TopLevel() {
		for i, s := range b.List {
			if !compound(s) || contains(s, true, isDefer) {
				continue // (a defer left by cellDefers would run when the function returns)
			}
			needs := needsFuncScope(s)
			var shadow *ast.Ident
			if !needs {
				if outer == nil {
					outer = c.topLevelNames()
				}
				shadow = c.shadowing(s, outer, earlier)
				needs = shadow != nil
			}
			if !needs {
				nestedDecls(s, func(id *ast.Ident) bool {
					earlier[id.Name] = true
					return true
				})
				continue
			}
			if label := jumpsOut(s); label != nil {
				if outer == nil {
					outer = c.topLevelNames()
				}
				if bad := c.renameShadows(s, outer, !needsFuncScope(s)); bad != nil {
					c.Fail(bad.Pos(), "%s declared in a block that leaves it with goto %s shadows the outer %s: at top level the interpreter cannot keep the two apart; rename the inner %s",
						bad.Name, userLabel(label), bad.Name, bad.Name)
					return
				}
				continue
			}
			b.List[i] = inFuncLit(s)
		}
	}
}

func isDefer(n ast.Node) bool {
	_, ok := n.(*ast.DeferStmt)
	return ok
}

// compound reports whether s has nested scopes.
func compound(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		return true
	}
	return false
}

// needsFuncScope reports whether s declares what yaegi declares only in a
// function or at package level.
func needsFuncScope(s ast.Stmt) bool {
	needs := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) > 1 && len(x.Rhs) == 1 {
				needs = true
			}
		case *ast.TypeSwitchStmt:
			if _, binds := x.Assign.(*ast.AssignStmt); binds {
				needs = true // switch v := x.(type) crashes yaegi's compiler here
			}
		case *ast.GenDecl:
			switch x.Tok {
			case token.TYPE, token.CONST:
				needs = true
			case token.VAR:
				for _, sp := range x.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) > 1 && len(vs.Values) == 1 {
						needs = true
					}
				}
			}
		}
		return !needs
	})
	return needs
}

// jumpsOut is the label of a goto in s to a label outside s, or nil.
func jumpsOut(s ast.Stmt) *ast.Ident {
	inside := map[string]bool{}
	var gotos []*ast.Ident
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			inside[x.Label.Name] = true
		case *ast.BranchStmt:
			if x.Tok == token.GOTO && x.Label != nil {
				gotos = append(gotos, x.Label)
			}
		}
		return true
	})
	for _, l := range gotos {
		if !inside[l.Name] {
			return l
		}
	}
	return nil
}

// renameShadows gives the names s declares that shadow one of the top
// level (outer) or visible outside new names, in their declarations and
// uses; it returns one it cannot rename: the oracle did not type it (an
// earlier pass wrote it: loopvars' copy of a captured loop variable), or
// s has what needs a function's scope (v, ok := f(), which yaegi's global
// analysis leaves undefined in a nested block) and may not (!may).
func (c *Cell) renameShadows(s ast.Stmt, outer map[string]bool, may bool) *ast.Ident {
	renamed := map[types.Object]string{}
	var bad *ast.Ident
	nestedDecls(s, func(id *ast.Ident) bool {
		if !outer[id.Name] && !c.visibleOutside(id.Name) {
			return true
		}
		obj := c.Types.Defs[id]
		if obj == nil || !may {
			bad = id
			return false
		}
		renamed[obj] = c.Temp("V")
		return true
	})
	if bad != nil || len(renamed) == 0 {
		return bad
	}
	ast.Inspect(s, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if t, ok := renamed[c.Types.ObjectOf(id)]; ok {
				id.Name = t
			}
		}
		return true
	})
	return nil
}

// shadowing is the first name s declares in a nested scope that is also
// visible outside that scope: in outer (the cell's top-level statements)
// or earlier (declared nested by the cell's earlier statements), through
// the oracle's package scope (the cell's declarations, the session's
// names, packages, builtins), or declared by s before it. (Declared
// anywhere in s before, not only in an enclosing block: a few more
// statements move into functions than need to, which changes nothing
// they compute.)
func (c *Cell) shadowing(s ast.Stmt, outer, earlier map[string]bool) *ast.Ident {
	seen := map[string]bool{}
	var found *ast.Ident
	nestedDecls(s, func(id *ast.Ident) bool {
		if seen[id.Name] || outer[id.Name] || earlier[id.Name] || c.visibleOutside(id.Name) {
			found = id
			return false
		}
		seen[id.Name] = true
		return true
	})
	return found
}

// nestedDecls calls declare with each name s declares (outside function
// literals, which are scopes of their own), in order, while it returns
// true.
func nestedDecls(s ast.Stmt, declare func(*ast.Ident) bool) {
	more := true
	visit := func(id *ast.Ident) {
		if more && id != nil && id.Name != "_" && !strings.HasPrefix(id.Name, tempPrefix) {
			more = declare(id)
		}
	}
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					id, _ := l.(*ast.Ident)
					visit(id)
				}
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				for _, e := range []ast.Expr{x.Key, x.Value} {
					id, _ := e.(*ast.Ident)
					visit(id)
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				visit(id)
			}
		case *ast.TypeSpec:
			visit(x.Name)
		}
		return more
	})
}

// visibleOutside reports whether name means something in the cell's
// package scope or the universe: a name of the session or of the cell's
// declarations, a package, a builtin.
func (c *Cell) visibleOutside(name string) bool {
	if c.Types != nil && c.Types.Pkg != nil {
		_, obj := c.Types.Pkg.Scope().LookupParent(name, token.NoPos)
		return obj != nil
	}
	return types.Universe.Lookup(name) != nil
}

// topLevelNames are the names the cell's top-level statements declare
// (its declarations are in the oracle's package scope).
func (c *Cell) topLevelNames() map[string]bool {
	names := map[string]bool{}
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			for _, id := range typecheck.DefinedIdents(s) {
				names[id.Name] = true
			}
		}
	}
	return names
}

// inFuncLit wraps s as func() { s }().
func inFuncLit(s ast.Stmt) ast.Stmt {
	return &ast.ExprStmt{X: called(funcLit(s.Pos(), s.End(), nil, s))}
}
