package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// reflectMethods refuses asking reflect for the method set of a type the
// cells may have declared: reflect.Type's and reflect.Value's NumMethod,
// Method and MethodByName, Type.Implements, and the reflect.Type of a
// cell's interface (reflect.TypeOf((*Game)(nil)).Elem()). yaegi v0.16.1
// builds the types cells declare with reflect (interp/type.go, refType),
// which cannot give a type methods, and keeps a cell's interface values in
// a struct of its own (valueInterface): NumMethod said 0, MethodByName
// found nothing, and the interface type was "struct valueInterface", all
// silently. Where the operand is traced to reflect.TypeOf or ValueOf of a
// value whose static type mentions no type of the cells (and, for a
// Value, holds no interface that might), it runs: library types keep
// their methods. Where it cannot be traced (a reflect.Type parameter), it
// is refused only in a session that declares methods or interfaces.
var reflectMethods = Pass{
	Name:     "reflectmethods",
	Run:      runReflectMethods,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"reflect_methods_refused", "reflect_value_print_refused"},
}

// reflectMethodSet are the reflect.Type and reflect.Value methods that
// read a method set.
var reflectMethodSet = map[string]bool{"NumMethod": true, "Method": true, "MethodByName": true, "Implements": true}

func runReflectMethods(c *Cell) {
	t := &reflectTracer{c: c}
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fn := c.callee(call)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" {
			t.printedValues(call)
			return c.err == nil
		}
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
			return true
		}
		if fn.Name() == "Elem" && t.cellIfaceType(sel.X) {
			c.Fail(call.Pos(), "%s, the reflect.Type of an interface a cell declares: the interpreter keeps such values in a struct of its own, so reflect would describe that struct (its Name, Kind, methods and Implements); compare types another way, or assert the value to the interface (v.(Game))",
				ExprString(call))
			return false
		}
		recv := fn.Type().(*types.Signature).Recv()
		if recv != nil && (fn.Name() == "Type" || fn.Name() == "Interface") && types.TypeString(recv.Type(), nil) == "reflect.Value" && !shapeOnly(cur, call) && t.mayHoldBased(sel.X) {
			c.Fail(call.Pos(), "%s of a reflect.Value that may hold a type the cells declare on a basic type, an array, a slice or a map: the interpreter keeps such a value as its underlying type's (an int for a type Grundy int), so the type or value reflect gives back would not be the cell's type; use reflect.TypeOf(x), or the value itself, where its type is known",
				ExprString(call))
			return false
		}
		if !reflectMethodSet[fn.Name()] || recv == nil {
			return true
		}
		operands := []ast.Expr{sel.X}
		if fn.Name() == "Implements" && len(call.Args) == 1 {
			operands = append(operands, call.Args[0])
		}
		for _, x := range operands {
			if t.native(x) || !c.sessionHasMethods() {
				continue
			}
			c.Fail(call.Pos(), "%s on a type the cells may declare: the interpreter builds those types with reflect, which gives them no methods (NumMethod says 0, MethodByName finds nothing, Implements fails); call the method directly, or assert the value to an interface (v.Interface().(interface{ Name() string }))",
				ExprString(call))
			return false
		}
		return true
	})
}

// printedValues refuses a reflect.Value that fmt's call would print (fmt
// prints the value it holds) when it may hold a value of a type the cells
// declare with a method fmt calls (String, Error, Format, GoString): the
// interpreter builds the types cells declare with reflect, which gives
// them no methods, and keeps a type on a basic type as its underlying
// type, so fmt printed 3 for a Nim whose String says *3, {2 x} for a
// struct holding one, and &{b} for a *Label whose String says [b],
// silently.
func (t *reflectTracer) printedValues(call *ast.CallExpr) {
	c := t.c
	printers := c.cellPrinters()
	if len(printers) == 0 {
		return
	}
	for _, a := range call.Args {
		if at := c.Types.TypeOf(a); at == nil || types.TypeString(at, nil) != "reflect.Value" || !t.mayHold(a, printers) {
			continue
		}
		c.Fail(a.Pos(), "printing %s, a reflect.Value that may hold a type the cells declare with a String, Error or Format method: the interpreter gives those types no methods reflect can call, so fmt would print the value without that method; print the value itself where its type is known",
			ExprString(a))
		return
	}
}

// cellPrinters are the types the cells declare with a method fmt calls
// (on the value or its pointer).
func (c *Cell) cellPrinters() map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for _, tn := range c.Types.CellTypes() {
		if n, ok := types.Unalias(tn.Type()).(*types.Named); ok && !types.IsInterface(n) && hasFmtMethod(n) {
			out[n.Obj()] = true
		}
	}
	return out
}

// mayHold reports whether x, a reflect.Value, may hold a value of one of
// the types named (in its structure, or behind an interface), as far as
// its reflect.ValueOf can be traced.
func (t *reflectTracer) mayHold(x ast.Expr, named map[*types.TypeName]bool) bool {
	return t.mayHoldWhere(x, func(n *types.Named) bool { return named[n.Origin().Obj()] }, false)
}

// shapeAsks are the reflect.Type methods whose answer a type on a basic
// type, slice or map shares with its underlying type.
var shapeAsks = map[string]bool{"Kind": true, "Bits": true, "Size": true, "Align": true, "FieldAlign": true, "Len": true, "NumField": true, "Comparable": true}

// shapeOnly reports whether call, v.Type(), is only asked its shape
// (v.Type().Bits()), which the underlying type answers right.
func shapeOnly(cur Cursor, call *ast.CallExpr) bool {
	sel, ok := cur.Parent().(*ast.SelectorExpr)
	return ok && sel.X == call && shapeAsks[sel.Sel.Name]
}

// reflectTracer follows a reflect.Type or reflect.Value expression back
// to the reflect.TypeOf or ValueOf call that made it.
type reflectTracer struct {
	c     *Cell
	inits map[types.Object][]ast.Expr // see localInits, made when first needed
}

// native reports whether x, a reflect.Type, reflect.Value or a value
// derived from one (a StructField, a Method), comes from reflect.TypeOf
// or ValueOf of a value whose type mentions no type of the cells.
func (t *reflectTracer) native(x ast.Expr) bool {
	roots, ok := t.roots(x, 0)
	if !ok {
		return false
	}
	for _, r := range roots {
		at := t.c.Types.TypeOf(r.Args[0])
		if at == nil || types.IsInterface(at) || mentionsCellType(at) || hasTypeParam(at) {
			return false
		}
		if t.c.callee(r).Name() == "ValueOf" && holdsInterface(at) {
			return false
		}
	}
	return true
}

// roots are the reflect.TypeOf and ValueOf calls x was made from, through
// method calls, fields and the variables the cell assigns; ok is false
// when some path leads elsewhere (a parameter, an earlier cell's variable).
func (t *reflectTracer) roots(x ast.Expr, depth int) (out []*ast.CallExpr, ok bool) {
	if depth > 8 {
		return nil, false
	}
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		vals := t.valuesOf(e)
		if len(vals) == 0 {
			return nil, false
		}
		for _, v := range vals {
			rs, ok := t.roots(v, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, rs...)
		}
		return out, true
	case *ast.SelectorExpr: // sf.Type of a StructField
		return t.roots(e.X, depth+1)
	case *ast.IndexExpr:
		return t.roots(e.X, depth+1)
	case *ast.CallExpr:
		fn := t.c.callee(e)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
			return nil, false
		}
		if fn.Type().(*types.Signature).Recv() == nil {
			if (fn.Name() != "TypeOf" && fn.Name() != "ValueOf") || len(e.Args) != 1 {
				return nil, false
			}
			return []*ast.CallExpr{e}, true
		}
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		// v.Convert(t), v.Set(w): a reflect.Type or Value argument
		// gives the result its type or value too.
		for _, x := range append([]ast.Expr{sel.X}, e.Args...) {
			if x != sel.X && !isReflectHandle(t.c.Types.TypeOf(x)) {
				continue
			}
			rs, ok := t.roots(x, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, rs...)
		}
		return out, true
	}
	return nil, false
}

// isReflectHandle reports whether t is reflect.Type or reflect.Value.
func isReflectHandle(t types.Type) bool { return isReflectType(t) || isReflectNamed(t, "Value") }

// mayHoldBased reports whether the reflect.Value x may hold a value of a
// type the cells declare on a basic type, slice or map, which the
// interpreter keeps as its underlying type's value.
func (t *reflectTracer) mayHoldBased(x ast.Expr) bool {
	if len(t.c.basedCellTypes()) == 0 {
		return false
	}
	return t.mayHoldWhere(x, isBased, true)
}

// mayHoldWhere reports whether the reflect.Value x may hold a value of a
// named type the predicate picks, or of an interface (which may hold
// anything), as far as its reflect.ValueOf can be traced (true where it
// cannot). With namedStructs, the fields of a cell's named struct type
// are not looked into: the interpreter builds its reflect type with their
// types (reflect.ValueOf(o).Type() of an Obs{T Celsius} is main.Obs, and
// its Field(0).Type main.Celsius).
func (t *reflectTracer) mayHoldWhere(x ast.Expr, pick func(*types.Named) bool, namedStructs bool) bool {
	holds := func(at types.Type) bool {
		found := at == nil
		walkTypes(at, func(ty types.Type) bool {
			n, named := types.Unalias(ty).(*types.Named)
			if named && pick(n) || types.IsInterface(ty) {
				found = true
			}
			_, isStruct := ty.Underlying().(*types.Struct)
			return !(namedStructs && named && isStruct && typecheck.IsCellType(n))
		})
		return found
	}
	if st, ok := t.staticType(x, 0); ok {
		// The type of the value x holds, where the chain from
		// reflect.ValueOf tells it (v.Field(0) of a struct whose first
		// field is a struct: not its other fields' types).
		return holds(st)
	}
	roots, ok := t.roots(x, 0)
	if !ok {
		return true
	}
	for _, r := range roots {
		if holds(t.c.Types.TypeOf(r.Args[0])) {
			return true
		}
	}
	return false
}

// valuesOf are the values the cell gives the variable id (localInits).
func (t *reflectTracer) valuesOf(id *ast.Ident) []ast.Expr {
	if t.inits == nil {
		t.inits = t.c.localInits()
	}
	return t.inits[t.c.Types.ObjectOf(id)]
}

// staticType is the type of the value the reflect.Value x holds, where x
// is reflect.ValueOf(e) of an e of a non-interface type, or a variable
// given only that, followed by Elem (of a pointer, or of an interface,
// which may hold anything: the interface), Index (of a slice or
// an array), Field or FieldByName with a constant; false otherwise.
func (t *reflectTracer) staticType(x ast.Expr, depth int) (types.Type, bool) {
	if depth > 8 {
		return nil, false
	}
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		vals := t.valuesOf(e)
		if len(vals) != 1 {
			return nil, false
		}
		return t.staticType(vals[0], depth+1)
	case *ast.CallExpr:
		fn := t.c.callee(e)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
			return nil, false
		}
		if fn.Type().(*types.Signature).Recv() == nil {
			if fn.Name() != "ValueOf" || len(e.Args) != 1 {
				return nil, false
			}
			at := t.c.Types.TypeOf(e.Args[0])
			if at == nil || types.IsInterface(at) {
				return nil, false
			}
			return at, true
		}
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		rt, ok := t.staticType(sel.X, depth+1)
		if !ok {
			return nil, false
		}
		switch u := rt.Underlying().(type) {
		case *types.Interface:
			if fn.Name() == "Elem" && len(e.Args) == 0 {
				return rt, true // (any dynamic type: an interface may hold anything)
			}
		case *types.Pointer:
			if fn.Name() == "Elem" && len(e.Args) == 0 {
				return u.Elem(), true
			}
		case *types.Slice:
			if fn.Name() == "Index" {
				return u.Elem(), true
			}
		case *types.Array:
			if fn.Name() == "Index" {
				return u.Elem(), true
			}
		case *types.Struct:
			if len(e.Args) != 1 {
				return nil, false
			}
			tv := t.c.Types.Types[e.Args[0]]
			if tv.Value == nil {
				return nil, false
			}
			for i := range u.NumFields() {
				f := u.Field(i)
				switch {
				case fn.Name() == "Field" && tv.Value.Kind() == constant.Int && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(int64(i))):
					return f.Type(), true
				case fn.Name() == "FieldByName" && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == f.Name():
					return f.Type(), true
				}
			}
		}
	}
	return nil, false
}

// cellIfaceType reports whether x is reflect.TypeOf(p), p a pointer to an
// interface type the cells declare.
func (t *reflectTracer) cellIfaceType(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn := t.c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Name() != "TypeOf" {
		return false
	}
	p, ok := types.Unalias(t.c.Types.TypeOf(call.Args[0])).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && types.IsInterface(n) && typecheck.IsCellType(n)
}

// localInits maps each variable the cell defines or assigns with x := e,
// x = e or var x = e (one value per name) to the values it is given.
func (c *Cell) localInits() map[types.Object][]ast.Expr {
	out := map[types.Object][]ast.Expr{}
	add := func(id *ast.Ident, v ast.Expr) {
		if obj := c.Types.ObjectOf(id); obj != nil {
			out[obj] = append(out[obj], v)
		}
	}
	visit := func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if (s.Tok == token.DEFINE || s.Tok == token.ASSIGN) && len(s.Lhs) == len(s.Rhs) {
				for i, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						add(id, s.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			if len(s.Values) == len(s.Names) {
				for i, id := range s.Names {
					add(id, s.Values[i])
				}
			}
		}
		return true
	}
	if c.Decls != nil {
		ast.Inspect(c.Decls, visit)
	}
	if c.Stmts != nil {
		ast.Inspect(c.Stmts, visit)
	}
	return out
}

// sessionHasMethods reports whether the session (earlier cells and this
// one) declares a type with methods or an interface type.
func (c *Cell) sessionHasMethods() bool {
	check := func(tn *types.TypeName) bool {
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		return ok && typecheck.IsCellType(n) && (n.NumMethods() > 0 || types.IsInterface(n))
	}
	for _, tn := range c.Types.CellTypes() {
		if check(tn) {
			return true
		}
	}
	for _, obj := range c.Types.Defs {
		if tn, ok := obj.(*types.TypeName); ok && check(tn) {
			return true
		}
	}
	return false
}
