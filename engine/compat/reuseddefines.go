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
//
// And a blank among the names one of a cell's statements defines (n, _ :=
// twice()): yaegi v0.16.1 declares _ there as a
// package variable of the value's type, and a later _ = v or var _ = v
// of another type at top level panicked in reflect.Set ("value of type
// string is not assignable to type int"). The blank becomes a variable
// of its own, which nothing reads: n, _grundyBlank1 := twice(). So does
// a blank a top-level assignment assigns (_ = len(s), then _ = "x": "SetInt
// on string Value", where the cell declares a function or a package
// variable): _grundyBlank1 := len(s), a constant assigned to it left out.
var reusedDefines = Pass{
	Name:     "reuseddefines",
	Run:      runReusedDefines,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"define_reused_variable"},
}

func runReusedDefines(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		direct := cur.TopLevel() && cur.Parent() == c.Stmts && cur.Index() >= 0 // (one of the cell's statements)
		if ok && as.Tok == token.DEFINE && direct {
			c.blankDefines(as)
		}
		if ok && as.Tok == token.ASSIGN && direct {
			if r := c.blankAssigns(as); r != nil {
				cur.Replace(r)
				return false
			}
		}
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

// blankDefines names the blanks of as, a definition in a cell's top-level
// code, as variables of their own (see reusedDefines).
func (c *Cell) blankDefines(as *ast.AssignStmt) {
	if len(as.Rhs) == 1 && commaOkForm(as.Rhs[0]) {
		return // (commaOk's: see commaOk)
	}
	for _, r := range as.Rhs {
		if _, typed := c.Types.Types[ast.Unparen(r)]; !typed {
			return // (a pass's: a comma-ok form basedAsserts wrote, say, which commaOk makes an assignment)
		}
	}
	for i, l := range as.Lhs {
		if isIdent(l, "_") {
			as.Lhs[i] = ident(c.blankVar(l.Pos()), l.Pos())
		}
	}
}

// blankAssigns is as, an assignment in a cell's top-level code with a
// blank among its targets, with the blanks' values in variables of their
// own (see reusedDefines), one at a time as sequentialValues assigns
// them; nil when as has no blank, or is a comma-ok form (commaOk's), or
// assigns a place other than a variable.
func (c *Cell) blankAssigns(as *ast.AssignStmt) ast.Stmt {
	blank := false
	for _, l := range as.Lhs {
		if isIdent(l, "_") {
			blank = true
		} else if _, ok := l.(*ast.Ident); !ok {
			return nil
		}
	}
	if !blank {
		return nil
	}
	pos := as.Pos()
	if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
		if commaOkForm(as.Rhs[0]) {
			return nil
		}
		// _, w = f(): _grundyBlank1, _grundyPA2 := f(); w = _grundyPA2
		var lhs []ast.Expr
		var after []ast.Stmt
		for _, l := range as.Lhs {
			if isIdent(l, "_") {
				lhs = append(lhs, ident(c.blankVar(l.Pos()), l.Pos()))
				continue
			}
			tmp := c.Temp("PA")
			lhs = append(lhs, ident(tmp, l.Pos()))
			after = append(after, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(tmp, pos)}})
		}
		return &ast.BlockStmt{Lbrace: pos, List: append([]ast.Stmt{define(pos, lhs, as.Rhs[0])}, after...), Rbrace: as.End()}
	}
	if len(as.Rhs) != len(as.Lhs) {
		return nil
	}
	return c.sequentialValues(as.Lhs, as.Rhs, pos)
}

// blankVar names the variable a blank at pos becomes in a cell's
// top-level code (see reusedDefines): a package variable to yaegi, so
// its name is the session's alone (by position; Temp's count starts again
// in each cell), or a later cell's would be the earlier one's, with its
// type ("fmt.Stringer is not assignable to type int").
func (c *Cell) blankVar(pos token.Pos) string { return c.Temp("Blank" + itoa(int(pos)) + "_") }

// commaOkForm reports whether x, the one value of an assignment of two,
// is a map index, a type assertion or a receive.
func commaOkForm(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}
