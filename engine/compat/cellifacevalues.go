package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// cellIfaceValues: a value of a library type (time.Duration,
// *strings.Reader, games.Game) put in an interface type the cells declare,
// implicitly (var s Str = d; ns = append(ns, g); f(d) with f taking a Str;
// return g) or by a conversion (Str(d)). yaegi v0.16.1 keeps in its
// valueInterface the reflect.Value of the variable the value came from,
// not a copy (interp/run.go, genInterfaceWrapper's callers): assigning
// the variable again changed the interface's value, so every element a
// range loop appended was the last one ([3ns 3ns 3ns]), silently. A call's
// result handed straight over had no node at all, and comparing it with
// nil panicked. The value goes through a function the session declares
// once for the two types, whose parameter is the copy:
//
//	var s Str = d  =>  var s Str = _grundyIfaceCopy_123(d)
//
//	func _grundyIfaceCopy_123(v time.Duration) (r Str) { r = v; return }
//
// (for a library interface, if v != nil { r = v }: yaegi made a nil one a
// non-nil Str). Where the types cannot be written at the top of the cell
// (an interface a function declares), a call's result is converted
// explicitly, which gives it its node.
var cellIfaceValues = Pass{
	Name:     "cellifacevalues",
	Run:      runCellIfaceValues,
	Kinds:    assignedKinds,
	Snippets: []string{"library_value_passed_as_cell_interface", "library_values_copied_into_cell_interfaces", "nil_cell_iface_in_any"},
}

func runCellIfaceValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) {
			if len(call.Args) == 1 && !call.Ellipsis.IsValid() {
				if x, ok := c.cellIfaceValue(c.Types.TypeOf(call.Fun), call.Args[0]); ok {
					cur.Replace(x)
				} else if x, ok := c.cellIfaceInAny(c.Types.TypeOf(call.Fun), call.Args[0]); ok {
					cur.Replace(x) // any(s): as var a any = s
				}
			}
			return true
		}
		for _, v := range c.assignedValues(cur, nil) {
			if x, ok := c.cellIfaceValue(v.target, v.value); ok {
				v.set(x)
			}
		}
		for _, v := range c.assignedValues(cur, c.interpreted) {
			if x, ok := c.cellIfaceInAny(v.target, v.value); ok {
				v.set(x)
			}
		}
		return true
	})
}

// cellIfaceInAny is e, a value of an interface type with methods the
// cells declare (var s Shape), put in an empty interface that is not the
// cells' (var a any = s; kind(s) with kind taking an any), through
// a function the session declares once for the two types:
//
//	var a any = s  =>  var a any = _grundyIfaceAny_123(s)
//
//	func _grundyIfaceAny_123(v Shape) (r any) { if v != nil { r = v }; return }
//
// yaegi v0.16.1 puts a nil such value in the any as its own empty
// valueInterface, not as nil: a type switch missed case nil, a.(fmt.Stringer)
// panicked with a nil dereference and reflect.ValueOf(a).IsValid() was
// true. Values handed to native functions are left to the passes that
// type them (fmt's, reflect's).
func (c *Cell) cellIfaceInAny(target types.Type, e ast.Expr) (ast.Expr, bool) {
	if target == nil || !emptyIface(target) || typecheck.IsCellType(target) {
		return nil, false
	}
	if _, param := types.Unalias(target).(*types.TypeParam); param {
		return nil, false
	}
	tv, ok := c.Types.Types[e]
	if !ok || tv.Type == nil || tv.IsNil() || !typecheck.IsCellType(tv.Type) || !types.IsInterface(tv.Type) || emptyIface(tv.Type) {
		return nil, false
	}
	pos := e.Pos()
	name := hashedName("IfaceAny", types.TypeString(tv.Type, nil), types.TypeString(target, nil))
	if !c.declareIfaceCopy(name, target, tv.Type, pos) {
		return nil, false
	}
	call := &ast.CallExpr{Fun: ident(name, pos), Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: target} // (any(s).(I) is nilAsserts')
	return &ast.ParenExpr{Lparen: pos, X: call, Rparen: e.End()}, true
}

// cellIfaceValue is e, of a library type, as a value of target, an
// interface type the cells declare, copied (see cellIfaceValues); false
// when e needs nothing.
func (c *Cell) cellIfaceValue(target types.Type, e ast.Expr) (ast.Expr, bool) {
	if target == nil || !types.IsInterface(target) || !cellTypeOrIfaceLit(target) {
		return nil, false
	}
	if _, param := target.(*types.TypeParam); param {
		return nil, false
	}
	tv, ok := c.Types.Types[e]
	if !ok || tv.Type == nil || tv.IsNil() || tv.Value != nil {
		return nil, false
	}
	et := tv.Type
	if _, tuple := et.(*types.Tuple); tuple || cellTypeOrIfaceLit(et) || emptyIface(et) || mentionsCellType(et) {
		return nil, false
	}
	if _, param := et.(*types.TypeParam); param {
		return nil, false
	}
	pos := e.Pos()
	name := hashedName("IfaceCopy", types.TypeString(et, nil), types.TypeString(target, nil))
	if c.declareIfaceCopy(name, target, et, pos) {
		// In parentheses: a call's result handed straight to a
		// parameter of an interface type is wrapped with the caller's
		// slot of that result (interp/run.go:1219), which the next call
		// fills anew (later(copy(g)) in a loop: a closure kept by later
		// saw the last g); ifaceCopies does so for the cells' own calls.
		copied := &ast.CallExpr{Fun: ident(name, pos), Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
		return &ast.ParenExpr{Lparen: pos, X: copied, Rparen: e.End()}, true
	}
	call, isCall := ast.Unparen(e).(*ast.CallExpr)
	if !isCall || c.Types.IsType(call.Fun) {
		return nil, false
	}
	tx, ok := c.TypeExpr(target, pos)
	if !ok {
		return nil, false
	}
	return &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: tx, Rparen: pos}, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}, true
}

// declareIfaceCopy declares (once in the session) the function name
// copying a value of type from into one of target, an interface the cells
// declare; false when the types cannot be written at the top of the cell.
func (c *Cell) declareIfaceCopy(name string, target, from types.Type, pos token.Pos) bool {
	if c.declared[name] || c.Session.Func(name) != nil {
		return true
	}
	xs, ok := c.typeExprs([]types.Type{from, target}, pos)
	if !ok {
		return false
	}
	v, r := ident(tempPrefix+"V", pos), ident(tempPrefix+"R", pos)
	var set ast.Stmt = &ast.AssignStmt{Lhs: []ast.Expr{r}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}}
	body := []ast.Stmt{set}
	if types.IsInterface(from) {
		// r = nil first: yaegi v0.16.1 hands a named result it never
		// set over in the caller's slot, which held the last call's
		// value (a nil Shape put in an any in a loop was the previous
		// iteration's; see namedResults).
		body = []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident(r.Name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident("nil", pos)}},
			ifThen(pos, &ast.BinaryExpr{X: v, OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)}, set)}
	}
	c.Insts = append(c.Insts, convFunc(name, nil, v, r, xs[0], xs[1], append(body, &ast.ReturnStmt{Return: pos})))
	c.noteDeclared(name)
	return true
}
