package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// reusedDefines: a definition of several variables from as many values
// that assigns one already declared in the same block (x := 1; p := &x;
// x, y := 2, 3, or n, err := 3, e after an err a closure reads). yaegi
// v0.16.1 gives every name on the left of such a := a new variable in a
// function's scope (interp/cfg.go:680, "sym = &symbol{index: sc.add(..)}":
// only the global scope looks the name up first), so a closure or a
// pointer that holds the old variable kept its old value: *p was 1, the
// closure saw a nil function. A definition from one call or a comma-ok
// form takes another path and keeps the variable, except among a cell's
// own statements (the engine runs them as a function's body, and keeps a
// := that assigns a name an earlier statement defined in place), where
// x, y := two() made a new x too. The values that go to variables
// already declared go into fresh temporaries in the same statement (so
// the values are computed as before, in their order and in the same
// scope), and the next statement assigns them: _t, y := 2, 3; x = _t.
var reusedDefines = Pass{
	Name:     "reuseddefines",
	Run:      runReusedDefines,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"define_reused_variable"},
}

func runReusedDefines(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || cur.Index() < 0 {
			return true
		}
		top := cur.TopLevel() && cur.Parent() == c.Stmts
		if len(as.Lhs) != len(as.Rhs) && !(top && c.isCall(as.Rhs)) {
			return true
		}
		// The engine defines the variables of a top-level := from a
		// generic call itself (capture, which keeps the names).
		if top && c.callsGeneric(as.Rhs...) {
			return true
		}
		var dst, src []ast.Expr
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			v, ok := c.Types.Uses[id].(*types.Var)
			if !ok && top {
				v, ok = c.hoistedVar(id)
			}
			if !ok {
				continue
			}
			tmp := ast.NewIdent(c.Temp("reused"))
			tmp.NamePos = id.Pos()
			// An untyped constant or nil takes the variable's type, as
			// the := gave it (the oracle records a constant with the
			// type it was converted to); a call's results are typed.
			if len(as.Rhs) == len(as.Lhs) {
				if tv, ok := c.Types.Types[as.Rhs[i]]; ok && (tv.Value != nil || tv.IsNil()) {
					as.Rhs[i] = c.convertTo(v.Type(), as.Rhs[i])
				}
			}
			as.Lhs[i] = tmp
			dst = append(dst, id)
			src = append(src, ast.NewIdent(tmp.Name))
		}
		if len(dst) > 0 {
			cur.InsertAfter(&ast.AssignStmt{Lhs: dst, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: src})
		}
		return true
	})
}

// isCall reports whether values is one call of a function (not a
// conversion), whose results a := spreads over its names.
func (c *Cell) isCall(values []ast.Expr) bool {
	if len(values) != 1 {
		return false
	}
	call, ok := ast.Unparen(values[0]).(*ast.CallExpr)
	return ok && !c.Types.IsType(call.Fun)
}

// hoistedVar is the session variable an earlier statement of the cell
// declared, which id, defined again by a := among the cell's statements,
// assigns in Go: the engine moved that declaration to package level
// (cell.Hoist, for the functions that use it), so the oracle sees the :=
// define a new variable beside it.
func (c *Cell) hoistedVar(id *ast.Ident) (*types.Var, bool) {
	def, ok := c.Types.Defs[id].(*types.Var)
	if !ok || def.Parent() == nil || def.Parent().Parent() == nil {
		return nil, false
	}
	_, obj := def.Parent().Parent().LookupParent(SourceName(id.Name), token.NoPos)
	v, ok := obj.(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || v.Pos() >= id.Pos() || c.Fset.File(v.Pos()) != c.Fset.File(id.Pos()) {
		return nil, false
	}
	return v, true
}
