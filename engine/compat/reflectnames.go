package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// reflectNames: t.Name(), t.String() and t.PkgPath() of a reflect.Type.
// yaegi v0.16.1 builds the types cells declare with reflect
// (interp/type.go:2058, refType), which gives them no names: the reflect
// type of a cell's Point is struct { X int; Y int }, whose Name is "".
// The calls go to grundyrt, which names the interpreter's reflect types
// by the types the session declared (see Types.TypeString): a struct type
// by its name, unless another cell type has its structure, and composites
// of them likewise. (A type declared on a basic type keeps the basic
// type's name: its reflect type is that type.) reflect.TypeOf(x) goes to
// grundyrt.TypeOf(x, desc) when x's type has a cell type in it or is an
// interface: a type declared on another type (type Kelvin float64) has
// that type's reflect type, and a value in an interface may be in one of
// the interpreter's boxes, whose reflect type is the box's; TypeOf
// answers with a reflect.Type named by the oracle's description (or the
// box's dynamic type), which reflect's constructors get back bare
// (grundyrt.RType). When the session boxes types on basic types (see
// boxed), and in every cell for an interface (a function of an earlier
// cell is handed values of the types later cells declare: size(b) with
// b a Board [2][3]uint8 said 0), reflect.ValueOf(x) of an interface goes
// to grundyrt.ValueOf, which takes the value out of its box (its
// reflect.Value was the box, a struct) or its native interface's wrapper
// (an error's: interp._error); so does reflect.ValueOf of a type
// parameter's value, whose reflect.TypeOf goes to grundyrt.TypeOfParam,
// which takes it out of the wrapper (T bound to error). reflect.DeepEqual(a, b) goes to
// grundyrt.DeepEqual, which takes
// values out of boxes at any depth and compares their types' names too
// (DeepEqual(ID(1), 1) was true; two []any{ID(1)} were not equal).
// == on reflect.Types goes to grundyrt.SameType, which takes TypeOf's
// named type for the interpreter's own where that says no more
// (reflect.ValueOf(p).Type() == reflect.TypeOf(p) was false), and
// t.AssignableTo(u) to grundyrt.AssignableTo, which follows Go's rule
// for named types (Temp and Cel on float64 were assignable).
var reflectNames = Pass{
	Name:     "reflectnames",
	Run:      runReflectNames,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.BinaryExpr)(nil)},
	Snippets: []string{"reflect_cell_type_names", "reflect_based_type_names", "reflect_boxed_values", "deep_equal_cell_iface_slices", "reflect_type_param_holding_error"},
}

var reflectNameCalls = map[string]string{"Name": prelude.RTTypeName, "String": prelude.RTTypeString, "PkgPath": prelude.RTTypePkgPath}

func runReflectNames(c *Cell) {
	// Names and reflect's constructors first: TypeOf's rewrite would
	// hide the calls' types from them.
	c.Apply(func(cur Cursor) bool {
		if bin, ok := cur.Node().(*ast.BinaryExpr); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) &&
			isReflectType(c.Types.TypeOf(bin.X)) && isReflectType(c.Types.TypeOf(bin.Y)) {
			var x ast.Expr = &ast.CallExpr{Fun: rtSelector(prelude.RTSameType, bin.Pos()), Lparen: bin.Pos(), Args: []ast.Expr{bin.X, bin.Y}, Rparen: bin.End()}
			if bin.Op == token.NEQ {
				x = &ast.UnaryExpr{OpPos: bin.Pos(), Op: token.NOT, X: x}
			}
			c.replaceTyped(cur, bin, x)
			return true
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "AssignableTo" && len(call.Args) == 1 && isReflectType(c.Types.TypeOf(sel.X)) {
			c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(prelude.RTAssignableTo, sel.Pos()), Lparen: call.Lparen, Args: []ast.Expr{sel.X, call.Args[0]}, Rparen: call.Rparen})
			return true
		}
		if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "reflect" && fn.Type().(*types.Signature).Recv() == nil {
			for i, a := range call.Args {
				if isReflectType(c.Types.TypeOf(a)) {
					call.Args[i] = &ast.CallExpr{Fun: rtSelector(prelude.RTRType, a.Pos()), Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
				}
			}
			return true
		}
		if len(call.Args) != 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		rt, ok := reflectNameCalls[sel.Sel.Name]
		if !ok || !isReflectType(c.Types.TypeOf(sel.X)) {
			return true
		}
		c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(rt, sel.Pos()), Lparen: call.Lparen, Args: []ast.Expr{sel.X}, Rparen: call.Rparen})
		return true
	})
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Type().(*types.Signature).Recv() != nil {
			return true
		}
		switch {
		case fn.Name() == "TypeOf" && len(call.Args) == 1 && isTypeParam(c.Types.TypeOf(call.Args[0])):
			call.Fun = rtSelector(prelude.RTTypeOfParam, call.Fun.Pos())
		case fn.Name() == "TypeOf" && len(call.Args) == 1:
			if r := c.typeOfArg(call.Args[0]); r != nil {
				c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(prelude.RTTypeOf, call.Fun.Pos()), Lparen: call.Lparen, Args: r, Rparen: call.Rparen})
			}
		case fn.Name() == "ValueOf" && len(call.Args) == 1 && (isIfaceType(c.Types.TypeOf(call.Args[0])) || isTypeParam(c.Types.TypeOf(call.Args[0]))):
			call.Fun = rtSelector(prelude.RTValueOf, call.Fun.Pos())
		case fn.Name() == "DeepEqual" && len(call.Args) == 2 && (c.boxesBasic() || c.deepBoxes(call.Args[0]) || c.deepBoxes(call.Args[1])):
			a, b := c.typeOfArg(call.Args[0]), c.typeOfArg(call.Args[1])
			if a == nil {
				a = []ast.Expr{call.Args[0], descLit(c.Types.TypeOf(call.Args[0]), call.Args[0].Pos())}
			}
			if b == nil {
				b = []ast.Expr{call.Args[1], descLit(c.Types.TypeOf(call.Args[1]), call.Args[1].Pos())}
			}
			c.replaceTyped(cur, call, &ast.CallExpr{Fun: rtSelector(prelude.RTDeepEqual, call.Fun.Pos()), Lparen: call.Lparen, Args: append(a, b...), Rparen: call.Rparen})
		}
		return true
	})
}

// typeOfArg is grundyrt.TypeOf's arguments for reflect.TypeOf(a): a (as
// any when it is of an interface type, as typedArg has it) and its type's
// description; nil when reflect names a's type right.
func (c *Cell) typeOfArg(a ast.Expr) []ast.Expr {
	t := c.Types.TypeOf(a)
	if t == nil || hasTypeParam(t) || !types.IsInterface(t) && !mentionsCellType(t) {
		return nil
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return nil
	}
	x := a
	if types.IsInterface(t) {
		x = &ast.CallExpr{Fun: ident("any", a.Pos()), Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
	}
	return []ast.Expr{x, descLit(t, a.Pos())}
}

// isReflectType reports whether t is reflect.Type.
func isReflectType(t types.Type) bool { return isReflectNamed(t, "Type") }

// isReflectNamed reports whether t is package reflect's type name.
func isReflectNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == name
}

// deepBoxes reports whether reflect.DeepEqual would meet the interpreter's
// boxes in a value of e's type: it is an interface, or holds one (a
// []Animal, a struct with a Game field, a map[string]any), whose values
// of cell types with methods are boxed with the node that made them, so
// reflect compared two equal []Animal{Dog{"rex"}} as different boxes and
// said false. The runtime's DeepEqual compares what is in the boxes.
func (c *Cell) deepBoxes(e ast.Expr) bool {
	t := c.Types.TypeOf(e)
	return t != nil && (isIfaceType(t) || holdsInterface(t) && c.sessionHasMethods())
}

// replaceTyped replaces call, at cur, by n, typed as call was (for the
// passes after, which ask what it is: reflect.TypeOf(x).Field(0)).
func (c *Cell) replaceTyped(cur Cursor, call, n ast.Expr) {
	if tv, ok := c.Types.Types[call]; ok {
		c.Types.Types[n] = tv
	}
	cur.Replace(n)
}
