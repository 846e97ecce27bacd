package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// shifts: an untyped constant shifted takes the type of its context
// (with shiftOperands, for a count that is not constant).
// yaegi v0.16.1 gives it int whatever the context (interp/cfg.go, the
// shift's type is its left operand's), so "f & (1 << i)" with f a uint,
// "m[1<<i]" with uint keys or "append(us, 1<<i)" panicked in reflect
// ("call of reflect.Value.Uint on int Value"), and a constant shift
// beyond int's range ("var u uint64 = 1 << 63") was refused as an
// overflow. The oracle knows the type Go gives the shift:
//
//	f & (1 << i)            =>  f & (uint(1) << i)
//	var u uint64 = 1 << 63  =>  var u uint64 = uint64(9223372036854775808)
var shifts = Pass{
	Name:     "shifts",
	Run:      runShifts,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)}, // an op-assign shift with a count to convert has one
	Snippets: []string{"shift_untyped_in_typed_context", "shift_count_expression_typed_context"},
}

func runShifts(c *Cell) {
	for _, root := range c.Roots() {
		if contains(root, false, isShift) {
			applyIn(root, c.typedShift)
		}
	}
}

func isShift(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.SHL || x.Op == token.SHR
	case *ast.AssignStmt:
		return x.Tok == token.SHL_ASSIGN || x.Tok == token.SHR_ASSIGN
	}
	return false
}

// typedCount converts a shift count that is an arithmetic expression to
// its own type: yaegi v0.16.1 types the operands of such a count by the
// shift's context (interp/cfg.go, the binary expression takes the type
// of the assignment it is in), so "d |= 1 << (r - c + n)" with d a
// uint32 was refused with "mismatched types uint32 and int"; a
// conversion stops that.
func (c *Cell) typedCount(count *ast.Expr) {
	b, ok := ast.Unparen(*count).(*ast.BinaryExpr)
	if !ok {
		return
	}
	tv, ok := c.Types.Types[*count]
	if !ok || tv.Value != nil {
		return
	}
	t, ok := tv.Type.(*types.Basic)
	if ok && t.Kind() == types.UntypedInt {
		// A shift of an untyped constant (x << (1 << k)): go/types
		// leaves it untyped, Go's compiler makes it a uint, and yaegi
		// made it an int, which it then took for a count through
		// reflect's Uint (a panic).
		*count = &ast.CallExpr{Fun: ident("uint", b.Pos()), Lparen: b.Pos(), Args: []ast.Expr{*count}, Rparen: (*count).End()}
		return
	}
	if !integerOrParam(tv.Type) {
		return
	}
	if t, ok := c.TypeExpr(tv.Type, b.Pos()); ok {
		*count = &ast.CallExpr{Fun: t, Lparen: b.Pos(), Args: []ast.Expr{*count}, Rparen: (*count).End()}
	}
}

// typedShift gives a shift's untyped constant operand the type Go gives
// the shift.
func (c *Cell) typedShift(cur Cursor) bool {
	if !isShift(cur.Node()) {
		return true
	}
	if as, ok := cur.Node().(*ast.AssignStmt); ok {
		if len(as.Rhs) == 1 {
			c.typedCount(&as.Rhs[0])
		}
		return true
	}
	x := cur.Node().(*ast.BinaryExpr)
	c.typedCount(&x.Y)
	// A constant shift beyond int64's range, written as its value.
	tv, ok := c.Types.Types[x]
	if !ok || tv.Value == nil || !integerOrParam(tv.Type) || fitsInt64(tv.Value) {
		return true // (within it yaegi computes it right)
	}
	if t, ok := c.TypeExpr(tv.Type, x.Pos()); ok {
		lit := &ast.BasicLit{ValuePos: x.Pos(), Kind: token.INT, Value: tv.Value.ExactString()}
		cur.Replace(&ast.CallExpr{Fun: t, Lparen: x.Pos(), Args: []ast.Expr{lit}, Rparen: x.End()})
	}
	return true
}

// shiftOperands gives the untyped constant operand of a shift whose count
// is not constant the type Go gives the shift (the rest of shifts' work).
// It runs before bounds, which copies an index into its check as it is:
// []uint64{1 << n}[0] was checked with an int shift there, which panicked
// in reflect.
//
//	f & (1 << i)  =>  f & (uint(1) << i)
var shiftOperands = Pass{
	Name:     "shiftoperands",
	Run:      runShiftOperands,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"shift_untyped_in_typed_context", "shift_untyped_generic_operand"},
}

func runShiftOperands(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		x, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || !isShift(x) {
			return true
		}
		tv, ok := c.Types.Types[x]
		if !ok || tv.Value != nil || !integerOrParam(tv.Type) {
			return true
		}
		left, ok := c.Types.Types[x.X]
		if !ok || left.Value == nil || !c.untypedConst(x.X) || types.Identical(tv.Type, types.Typ[types.Int]) {
			return true
		}
		if t, ok := c.TypeExpr(tv.Type, x.Pos()); ok {
			conv := &ast.CallExpr{Fun: t, Lparen: x.X.Pos(), Args: []ast.Expr{x.X}, Rparen: x.X.End()}
			// (Typed for bounds, after: a conversion is no call a check
			// must wait for.)
			c.Types.RecordTypeExpr(t, tv.Type)
			c.Types.Types[conv] = tv
			x.X = conv
		}
		return true
	})
}

// floatShifts: a float constant shifted by a count that is not constant
// (1.0 << s) is an integer of the shift's type to Go, and is written as
// one:
//
//	a[1.0<<s]  =>  a[int(1)<<s]
//
// yaegi v0.16.1 shifted a float64: a[1.0<<s] left the function silently,
// make([]byte, 1.0<<s) panicked in reflect's SetInt. Before bounds, which
// copies an index into its check.
var floatShifts = Pass{
	Name:     "floatshifts",
	Run:      runFloatShifts,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"shift_float_constant"},
}

func runFloatShifts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		x, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || !isShift(x) {
			return true
		}
		tv, ok := c.Types.Types[x]
		left, lok := c.Types.Types[x.X]
		if !ok || !lok || tv.Value != nil || left.Value == nil || left.Value.Kind() == constant.Int || !integerOrParam(tv.Type) || !c.untypedConst(x.X) {
			return true
		}
		whole := constant.ToInt(left.Value)
		if whole.Kind() != constant.Int {
			return true
		}
		if t, ok := c.TypeExpr(tv.Type, x.Pos()); ok {
			lit := &ast.BasicLit{ValuePos: x.X.Pos(), Kind: token.INT, Value: whole.ExactString()}
			x.X = &ast.CallExpr{Fun: t, Lparen: x.X.Pos(), Args: []ast.Expr{lit}, Rparen: x.X.End()}
		}
		return true
	})
}

func isTypedInteger(t types.Type) bool {
	if t == nil || isUntyped(t) {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// integerOrParam reports whether t is a typed integer type, or a type
// parameter whose constraint's type terms are all integer types (func
// F[T ~uint8 | ~uint64](x T, n int) T { return x | 1<<n }: the shift is a
// T, and yaegi's int panicked in reflect's SetUint).
func integerOrParam(t types.Type) bool {
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return isTypedInteger(t)
	}
	terms := termTypes(tp)
	for _, u := range terms {
		if !isTypedInteger(u) {
			return false
		}
	}
	return len(terms) > 0
}

// unsignedOrParam reports whether t is an unsigned integer type, or a
// type parameter whose type terms all are.
func unsignedOrParam(t types.Type) bool {
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return isUnsigned(t)
	}
	for _, u := range termTypes(tp) {
		if !isUnsigned(u) {
			return false
		}
	}
	return integerOrParam(t)
}

func fitsInt64(v constant.Value) bool {
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return false
	}
	_, ok := constant.Int64Val(v)
	return ok
}

// untypedConst reports whether a constant expression is untyped in the
// source (the oracle records the type it finally takes).
func (c *Cell) untypedConst(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return c.untypedConst(x.X)
	case *ast.UnaryExpr:
		return c.untypedConst(x.X)
	case *ast.BinaryExpr:
		if x.Op == token.SHL || x.Op == token.SHR {
			return c.untypedConst(x.X)
		}
		return c.untypedConst(x.X) && c.untypedConst(x.Y)
	case *ast.Ident:
		obj, ok := c.Types.ObjectOf(x).(*types.Const)
		return ok && isUntyped(obj.Type())
	case *ast.SelectorExpr:
		obj, ok := c.Types.ObjectOf(x.Sel).(*types.Const)
		return ok && isUntyped(obj.Type())
	}
	return false
}
