package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// initOrder: a variable the cell declares at its top level with a value,
// used by the cell above its declaration (var a = b + 1; var b = 2, or
// fmt.Println(b) before var b = 2 where a function of the cell uses b),
// directly or through the cell's functions it calls there. The engine
// runs a cell in the order it is written: varInits assigns each value
// where its declaration stood, as yaegi v0.16.1 would run a file's
// variable initializers as written too (interp/program.go:165, "Wire and
// execute global vars"); but the oracle, like Go, takes such a variable
// as a package-level one, whose value is there before anything runs (Go
// orders package initializers by what they need). So the use read the
// zero value (a was 1), or received from a nil channel and deadlocked,
// silently. The engine refuses the cell before running, naming the
// variable to declare above its use. (A variable an earlier cell declared
// is read as that one: earlierReads.)
var initOrder = Pass{
	Name:     "initorder",
	Run:      runInitOrder,
	Kinds:    []ast.Node{(*ast.ValueSpec)(nil)},
	Snippets: []string{"var_used_above_its_declaration_refused"},
}

func runInitOrder(c *Cell) {
	valued := map[*types.Var]bool{} // the cell's package-level variables declared with a value
	funcs := map[*types.Func]*ast.FuncDecl{}
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok || len(vs.Values) == 0 {
						continue
					}
					for _, id := range vs.Names {
						if v, ok := c.Types.Defs[id].(*types.Var); ok && v.Parent() == c.Types.Pkg.Scope() {
							if _, again := c.Types.Earlier(SourceName(id.Name)).(*types.Var); !again {
								valued[v] = true
							}
						}
					}
				}
			case *ast.FuncDecl:
				if fn, ok := c.Types.Defs[d.Name].(*types.Func); ok && d.Body != nil {
					funcs[fn] = d
				}
			}
		}
	}
	if len(valued) == 0 {
		return
	}
	// uses reports the first variable of valued declared after at that n
	// uses, directly or through the cell's functions it calls, and where
	// n uses it or calls the function.
	seen := map[*ast.FuncDecl]bool{}
	var uses func(n ast.Node, at token.Pos) (*types.Var, token.Pos)
	uses = func(n ast.Node, at token.Pos) (found *types.Var, where token.Pos) {
		ast.Inspect(n, func(x ast.Node) bool {
			if found != nil {
				return false
			}
			var obj types.Object
			switch x := x.(type) {
			case *ast.FuncLit:
				return false // (run later, maybe: not followed)
			case *ast.Ident:
				obj = c.Types.Uses[x]
			case *ast.SelectorExpr:
				if sel := c.Types.Selections[x]; sel != nil {
					obj = sel.Obj()
				}
			}
			switch o := obj.(type) {
			case *types.Var:
				if valued[o] && o.Pos() > at {
					found, where = o, x.Pos()
				}
			case *types.Func:
				if fd := funcs[o]; fd != nil && !seen[fd] {
					seen[fd] = true
					if found, _ = uses(fd.Body, at); found != nil {
						where = x.Pos()
					}
				}
			}
			return found == nil
		})
		return found, where
	}
	refuse := func(n ast.Node, at token.Pos) bool {
		clear(seen)
		if v, where := uses(n, at); v != nil {
			c.Fail(where, "%s is used here before the cell gives it its value (var %s, line %d); the engine runs a cell in the order it is written, where Go gives package-level variables their values before anything runs: declare %s above this use",
				v.Name(), v.Name(), c.Fset.Position(v.Pos()).Line, v.Name())
			return true
		}
		return false
	}
	for _, d := range c.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				for _, e := range sp.(*ast.ValueSpec).Values {
					if refuse(e, sp.Pos()) {
						return
					}
				}
			}
		}
	}
	if c.Stmts != nil {
		for _, s := range c.Stmts.List {
			if refuse(s, s.Pos()) {
				return
			}
		}
	}
}
