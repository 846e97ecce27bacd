package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// ifaceCopies: a value of a cell type with methods, or a pointer to one,
// that Go converts to an interface (var a any = p, a = p, []any{p}, append(xs, p), m[k] = p,
// ch <- p, f(p) with an interface parameter, Shape(p)) is copied into the
// interface. yaegi v0.16.1 wraps the value's storage instead
// (genValueInterface, interp/value.go:236, keeps the frame's
// reflect.Value): a later change to the variable shows through the
// interface, and the values a loop appends to a []Shape (p, or mk(i), a
// call's result in its slot of the frame) are all its last one. A conversion to any makes a
// copy, and so does a call, for other interface types:
//
//	var a any = interface{}(p)
//	var s fmt.Stringer = func(_grundyIC1 P) fmt.Stringer { return _grundyIC1 }(p)
//
// Arguments of calls into native packages are copied by reflect and are
// left alone.
var ifaceCopies = Pass{
	Name:     "ifacecopies",
	Run:      runIfaceCopies,
	Kinds:    assignedKinds,
	Snippets: []string{"iface_values_are_copies", "iface_pointers_are_copies", "iface_array_literals", "iface_conversion_defines"},
}

func runIfaceCopies(c *Cell) {
	interpreted := func(call *ast.CallExpr) bool {
		fn := c.callee(call)
		return fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == c.Types.Pkg.Path()
	}
	copies := func(target types.Type, e ast.Expr) bool {
		_, param := target.(*types.TypeParam)
		if param || !types.IsInterface(target) || !c.sharedInIface(e) {
			return false
		}
		// A pointer goes into error and fmt.Stringer through wrappers of
		// their own (errorValues), which copy it.
		_, ptr := c.Types.TypeOf(e).(*types.Pointer)
		return !ptr || !isError(target) && !c.isNativeIface(target)
	}
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) && len(call.Args) == 1 {
			// I(p), explicitly (any(p) copies); compared with == it needs
			// no copy, and keeps its type for ifaceCompare.
			if be, ok := cur.Parent().(*ast.BinaryExpr); ok && (be.Op == token.EQL || be.Op == token.NEQ) {
				return true
			}
			if t := c.Types.TypeOf(call.Fun); copies(t, call.Args[0]) && !t.Underlying().(*types.Interface).Empty() {
				if typedByConversion(cur) && !isError(t) {
					// The conversion stays, with its type for the passes
					// after (ifaceAsserts); its operand is copied.
					if copied, ok := c.ifaceCopy(t, call.Args[0]); ok {
						call.Args[0] = copied.(*ast.CallExpr).Args[0]
					}
					return true
				}
				if copied, ok := c.copyInto(t, call.Args[0], false); ok {
					cur.Replace(copied)
				}
			}
			return true
		}
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) > 1 {
				c.sequentialAssign(cur, n, copies)
				return true
			}
		case *ast.ValueSpec:
			if len(n.Names) > 1 {
				c.sequentialSpecs(cur, n, copies)
				return true
			}
		}
		for _, a := range c.assignedValues(cur, interpreted) {
			if !copies(a.target, a.value) {
				continue
			}
			if copied, ok := c.copyInto(a.target, a.value, a.stored); ok {
				a.set(copied)
			}
		}
		return true
	})
}

// typedByConversion reports whether the conversion at cur gives its type
// to what follows: a variable it defines (s := Shape(Sq{2}), var s =
// ...) or the operand of an assertion (Shape(Sq{2}).(Sq)). There a
// literal is copied as a variable is (copyInto leaves it alone): alone it
// was of its own type, so the variable could not take another value
// (reflect.Set panicked) and the assertion did not compile; converted,
// yaegi lost its type in functions (a type switch on s took no case).
func typedByConversion(cur Cursor) bool {
	switch p := cur.Parent().(type) {
	case *ast.AssignStmt:
		return p.Tok == token.DEFINE
	case *ast.ValueSpec:
		return p.Type == nil
	case *ast.TypeAssertExpr:
		return true
	}
	return false
}

// copyInto is e converted to the interface type t through a copy,
// unless e is a composite literal and t an interface a cell declares: such
// a literal is a value of its own there (it is not in a native interface's
// wrapper), and a copy or a conversion would lose its type for type
// switches; stored in a field or an element, it takes the conversion
// (yaegi stores the value with the value's type: "reflect.Set: value of
// type interp.valueInterface is not assignable"). So the commonest case,
// out = append(out, Nim{k}), costs nothing more. A literal of a type on
// an array is copied like a variable (yaegi panicked in reflect.Set
// assigning Row{0, 1, 2} to a Game).
func (c *Cell) copyInto(t types.Type, e ast.Expr, stored bool) (ast.Expr, bool) {
	_, isStruct := typeUnder(c.Types.TypeOf(e)).(*types.Struct)
	if _, lit := ast.Unparen(e).(*ast.CompositeLit); lit && isStruct && typecheck.IsCellType(t) && !isError(t) {
		if !stored {
			return e, true
		}
		te, ok := c.TypeExpr(t, e.Pos())
		return &ast.CallExpr{Fun: te, Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}, ok
	}
	return c.ifaceCopy(t, e)
}

// ifaceCopy writes e converted to the interface type t through a copy:
// interface{}(e) for a struct converted to any, else
//
//	func(_grundyIC1 T) (_grundyIC2 t) { _grundyIC2 = _grundyIC1; return }(e)
//
// T being e's type, and for error func(_grundyIC1 T) error { return
// _grundyAsError(_grundyIC1) }(e) (errorValues cannot see into it). A
// call has a new frame each time, so the copy is its own. (yaegi's
// explicit conversion to an interface other than any shares e's storage
// as the implicit one does; any(e) loses a type on a basic type, with its
// methods; the result of a conversion T(e) or an assertion to T is one
// slot of the frame, which each iteration of a loop reuses; and returning
// it as any loses its type too.)
func (c *Cell) ifaceCopy(t types.Type, e ast.Expr) (ast.Expr, bool) {
	pos := e.Pos()
	if _, isStruct := c.Types.TypeOf(e).Underlying().(*types.Struct); isStruct && t.Underlying().(*types.Interface).Empty() {
		// A struct converted to any is copied, and the engine's struct
		// types carry their names (structnames), so the cheaper
		// conversion does (four times faster on a loop appending to a
		// []any).
		anyType := &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
		return &ast.CallExpr{Fun: anyType, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}, true
	}
	it, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil, false
	}
	vt, ok := c.TypeExpr(c.Types.TypeOf(e), pos)
	if !ok {
		return nil, false
	}
	v := c.Temp("IC")
	var f *ast.FuncLit
	if isError(t) && promotedError(c.Types.TypeOf(e)) {
		return c.promotedAsError(e, vt), true
	}
	if isError(t) {
		asErr := &ast.CallExpr{Fun: ident(prelude.AsError, pos), Lparen: pos, Args: []ast.Expr{ident(v, pos)}, Rparen: pos}
		f = funcLit(pos, pos, results(it), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{asErr}})
	} else {
		r := c.Temp("IC")
		body := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident(r, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v, pos)}}}
		if c.isNativeIface(t) {
			// grundyrt.Rewrap(&r, v): yaegi's wrapper with the whole
			// value in it.
			rewrap := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTRewrap, pos)}, Lparen: pos,
				Args: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(r, pos)}, ident(v, pos)}, Rparen: pos}
			body = append(body, &ast.ExprStmt{X: rewrap})
		}
		f = funcLit(pos, pos, &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ident(r, pos)}, Type: it}}}, append(body, &ast.ReturnStmt{Return: pos})...)
	}
	f.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(v, pos)}, Type: vt}}
	copied := &ast.CallExpr{Fun: f, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	if isError(t) || t.Underlying().(*types.Interface).Empty() {
		return copied, true
	}
	// Passed on as an argument, the call's result is an interface whose
	// dynamic type yaegi no longer knows (g.(Sub) fails in the function)
	// until it is converted to its type again.
	it2, _ := c.TypeExpr(t, pos)
	return &ast.CallExpr{Fun: it2, Lparen: pos, Args: []ast.Expr{copied}, Rparen: e.End()}, true
}

// isNativeIface reports whether t is an interface type of a native package
// (fmt.Stringer), which yaegi gives a value through a wrapper of its own.
func (c *Cell) isNativeIface(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != c.Types.Pkg.Path()
}

// sharedInIface reports whether e is a value of a cell type with methods
// that yaegi may share with an interface it is converted to.
func (c *Cell) sharedInIface(e ast.Expr) bool {
	t := c.Types.TypeOf(e)
	if _, param := t.(*types.TypeParam); param {
		// In a generic function, T may stand for such a type.
		return true
	}
	if p, ok := t.(*types.Pointer); ok && typecheck.IsCellType(p.Elem()) {
		// A pointer variable's slot is shared too, when the pointer has
		// methods: the values a loop appends to a []Game (for _, n :=
		// range nodes) are all its last one.
		return types.NewMethodSet(t).Len() > 0
	}
	if t == nil || types.IsInterface(t) || !typecheck.IsCellType(t) {
		return false
	}
	if _, ptr := t.Underlying().(*types.Pointer); ptr {
		return false
	}
	if types.NewMethodSet(t).Len() == 0 && types.NewMethodSet(types.NewPointer(t)).Len() == 0 {
		return false
	}
	// Even a composite literal: stored in a map in a loop, it is one slot
	// of the frame that each iteration reuses.
	return true
}

// yaegi's parallel assignments and declarations of several variables
// with an interface type panic in reflect.Set on the values of cell types
// ("value of type interp.valueInterface is not assignable to type ...",
// or a wrapper of fmt.Stringer "not assignable to type int"); one at a
// time, with the copies above, they run.

// sequentialSpecs writes var a, b I = x, y as var a I = x; var b I = y,
// when no value mentions a declared name (which would then mean the new
// variable).
func (c *Cell) sequentialSpecs(cur Cursor, vs *ast.ValueSpec, copies func(types.Type, ast.Expr) bool) {
	gd, ok := cur.Parent().(*ast.GenDecl)
	if !ok || cur.Index() < 0 || vs.Type == nil || len(vs.Values) != len(vs.Names) {
		return
	}
	t := c.Types.TypeOf(vs.Type)
	if t == nil || !slices.ContainsFunc(vs.Values, func(v ast.Expr) bool { return copies(t, v) }) {
		return
	}
	names := map[string]bool{}
	for _, n := range vs.Names {
		names[n.Name] = true
	}
	for _, v := range vs.Values {
		if contains(v, false, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && names[id.Name] }) {
			return
		}
	}
	specs := make([]*ast.ValueSpec, len(vs.Names))
	for i, name := range vs.Names {
		te := vs.Type
		if i > 0 {
			if te, ok = c.TypeExpr(t, vs.Type.Pos()); !ok {
				return
			}
		}
		v := vs.Values[i]
		if copies(t, v) {
			if v, ok = c.ifaceCopy(t, v); !ok {
				return
			}
		}
		specs[i] = &ast.ValueSpec{Names: []*ast.Ident{name}, Type: te, Values: []ast.Expr{v}}
	}
	if !gd.Lparen.IsValid() {
		gd.Lparen, gd.Rparen = vs.Pos(), vs.End()
	}
	for i := len(specs) - 1; i > 0; i-- {
		cur.InsertAfter(specs[i])
	}
	cur.Replace(specs[0])
}

// sequentialAssign writes a, b = x, y (a and b variables) as
//
//	{ _grundyPA1 := x'; _grundyPA2 := y'; a = _grundyPA1; b = _grundyPA2 }
//
// x' being x's copy where it needs one (constants are assigned last as
// they are).
func (c *Cell) sequentialAssign(cur Cursor, as *ast.AssignStmt, copies func(types.Type, ast.Expr) bool) {
	if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) || cur.Index() < 0 {
		return
	}
	need := false
	for i, l := range as.Lhs {
		if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
			return
		}
		if t := c.Types.TypeOf(l); t != nil && copies(t, as.Rhs[i]) {
			need = true
		}
	}
	if !need {
		return
	}
	pos := as.Pos()
	var first, last []ast.Stmt
	for i, l := range as.Lhs {
		v := as.Rhs[i]
		if tv, ok := c.Types.Types[v]; ok && (tv.Value != nil || tv.IsNil()) {
			last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}})
			continue
		}
		if t := c.Types.TypeOf(l); t != nil && copies(t, v) {
			var ok bool
			if v, ok = c.ifaceCopy(t, v); !ok {
				return
			}
		}
		tmp := ident(c.Temp("PA"), pos)
		first = append(first, define(pos, []ast.Expr{tmp}, v))
		if isIdent(l, "_") {
			first = append(first, &ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(tmp.Name, pos)}})
			continue
		}
		last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(tmp.Name, pos)}})
	}
	cur.Replace(&ast.BlockStmt{Lbrace: pos, List: append(first, last...), Rbrace: as.End()})
}
