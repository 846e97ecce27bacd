package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// constQuotients: a division of untyped integer constants that its
// context gives a type is written as a conversion to that type, T(7 / 2).
// Go divides untyped integer constants as integers whatever type the
// result then takes (var f float64 = 7 / 2 is 3); yaegi v0.16.1 first
// gives the division the type the context wants (interp/cfg.go:108, the
// declared type "propagated" to the value; the same for an assignment, a
// named result, x += ..., a generic function's T) and then divides as
// integers only when that type is an untyped int (interp/op.go:876,
// quoConst), exactly otherwise: the declaration above printed 3.5, "r =
// 3 / 2" into a float64 result 1.5, "var w int64 = 7 / 2 * 2" 0 and "var
// d time.Duration = 3 / 2 * time.Second" 0s. The argument of a conversion
// keeps its untyped type there, so yaegi divides as Go does:
//
//	var f float64 = N / 2                      =>  var f float64 = float64(N / 2)
//	var d time.Duration = 3 / 2 * time.Second  =>  ... = time.Duration(3 / 2) * time.Second
//
// (The constants stay named: a function compiled again after a cell
// declares N again uses the new value.) Constant declarations are left
// to constValues; array lengths are ints, which yaegi divides right.
var constQuotients = Pass{
	Name:     "constquotients",
	Run:      runConstQuotients,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"const_untyped_division_float_context", "const_division_redefined", "const_expression_in_type_parameter"},
}

func runConstQuotients(c *Cell) {
	for _, root := range c.Roots() {
		type found struct {
			t     types.Type
			whole bool // converted as a whole (inexactConst)
			value bool // written as its value (valueConst)
		}
		consts := map[ast.Expr]found{}
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.CONST
			case *ast.ArrayType:
				return false
			case *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
				if t := c.valueConst(x.(ast.Expr)); t != nil {
					consts[x.(ast.Expr)] = found{t: t, value: true}
					return false
				}
				if _, unary := x.(*ast.UnaryExpr); unary {
					break
				}
				if t, whole := c.typedConst(x.(ast.Expr)); t != nil {
					consts[x.(ast.Expr)] = found{t: t, whole: whole}
					return false
				}
			}
			return true
		})
		if len(consts) == 0 {
			continue
		}
		applyIn(root, func(cur Cursor) bool {
			if e, ok := cur.Node().(ast.Expr); ok && consts[e].t != nil {
				if f := consts[e]; f.value {
					if x := c.constExpr(c.Types.Types[e].Value, f.t, e.Pos()); x != nil {
						c.Types.Types[x] = c.Types.Types[e]
						cur.Replace(x)
					}
				} else if f.whole {
					cur.Replace(c.convertTo(f.t, e))
				} else if x := c.convertQuotients(e, f.t); x != e {
					cur.Replace(x)
				}
			}
			return true
		})
	}
}

// typedConst is the type of the constant e when it has divisions in it
// that yaegi could get wrong: a type the context gave it, not int; or
// when it is to be converted as a whole (whole, see inexactConst).
func (c *Cell) typedConst(e ast.Expr) (t types.Type, whole bool) {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil || isUntyped(tv.Type) {
		return nil, false
	}
	whole = c.inexactConst(e, tv.Type)
	if !whole && (tv.Type == types.Typ[types.Int] || !contains(e, false, isQuotient)) {
		return nil, false
	}
	if _, ok := tv.Type.(*types.TypeParam); ok {
		return tv.Type, whole
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
		return nil, false // (a comparison's operands have types of their own)
	}
	return tv.Type, whole
}

// valueConst is the type of the constant e when e is to be written as its
// value, T(v), which the oracle computed exactly: yaegi v0.16.1 computes
// an untyped constant expression that its context gives a floating-point
// type in that type, step by step (var f float64 = big + 1 - big with big
// 1 << 60 was 0, Go 1; 1e16 + 1 + 1 was 1e16), refuses the integer
// operators there (var f float64 = 1 | 2 | 4: "operator | not defined on
// float64"), and cannot make a real or an integer of a complex constant
// whose imaginary part is 0 (var n int64 = z * (3 - 4i)); and it computes
// one an integer type holds in that type too, so a part the type cannot
// hold wrapped (var r int32 = 86400 * 365 * 100 % p: -363873, Go 590541;
// var avg int8 = (100 + 100 + 100) >> 2: 11, Go 75) or did not compile;
// and it compiles no arithmetic its context makes complex (var a
// complex128 = 1 + 2). Nor does it take len or cap of an array (or of a
// constant string) for a constant: f &^ (1<<len(names) - 1), f a uint8,
// shifted an int and panicked in reflect, "call of reflect.Value.Uint on
// int Value".
// nil when e needs none of this.
func (c *Cell) valueConst(e ast.Expr) types.Type {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil || isUntyped(tv.Type) {
		return nil
	}
	builtins := func() bool {
		return c.constPart(e, func(x ast.Expr, _ constant.Value) bool {
			call, ok := x.(*ast.CallExpr)
			return ok && c.isBuiltin(call.Fun)
		})
	}
	if _, param := types.Unalias(tv.Type).(*types.TypeParam); param {
		// v | 1<<len(a) with v a T, var r T = 86400 * 365 * 100 % p:
		// the value, untyped, which T's operation or the assignment
		// converts (yaegi computed the operations in T, as above: 11
		// for (100 + 100 + 100) >> 2 in an int8; and refused 1 | 2 | 4
		// in a float64).
		switch {
		case !builtins() && !constOperation(e):
			return nil
		case tv.Value.Kind() == constant.Int:
			return types.Typ[types.UntypedInt]
		case tv.Value.Kind() == constant.Float && roundedOnce(tv.Value, tv.Type):
			return types.Typ[types.UntypedFloat]
		case tv.Value.Kind() == constant.Complex && roundedOnce(constant.Real(tv.Value), tv.Type) && roundedOnce(constant.Imag(tv.Value), tv.Type):
			return types.Typ[types.UntypedComplex]
		}
		return nil
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 {
		return nil
	}
	if lit, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && lit.Op != token.XOR {
		if _, basic := ast.Unparen(lit.X).(*ast.BasicLit); basic {
			return nil // -1, +2.5
		}
	}
	if builtins() {
		return tv.Type // (see constQuotients: 1<<len(a) with a an array)
	}
	complexTarget := b.Info()&types.IsComplex != 0
	if _, bin := ast.Unparen(e).(*ast.BinaryExpr); bin && complexTarget {
		return tv.Type // (var a complex128 = 1 + 2: "the interpreter cannot compile this")
	}
	if c.constPart(e, func(_ ast.Expr, v constant.Value) bool { return v.Kind() == constant.Complex && !complexTarget }) {
		return tv.Type
	}
	if b.Info()&types.IsInteger != 0 {
		if c.constPart(e, func(_ ast.Expr, v constant.Value) bool { return v.Kind() == constant.Int && !fitsInteger(v, b) }) {
			return tv.Type
		}
		return nil
	}
	if c.inexactFloat(e) || c.constPart(e, func(x ast.Expr, _ constant.Value) bool { return integerOperator(x) }) {
		return tv.Type
	}
	return nil
}

// roundedOnce reports whether the float constant v, written as
// floatSource writes it, is rounded to the type parameter t's type once,
// as Go rounds it: float64 holds it exactly, or it is a whole number (a
// long literal) and t's types have 64-bit floats only (through float64
// first, 1 + 2^-24 + 2^-60 became a float32's 1, Go 1.0000001).
func roundedOnce(v constant.Value, t types.Type) bool {
	v = constant.ToFloat(v)
	if _, exact := constant.Float64Val(v); exact {
		return true
	}
	if d := constant.Denom(v); d.Kind() != constant.Int || constant.Compare(d, token.NEQ, constant.MakeInt64(1)) {
		return false
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	return ok && typeSetEach(tp.Constraint(), func(u types.Type) bool {
		b, ok := u.(*types.Basic)
		return ok && b.Kind() != types.Float32 && b.Kind() != types.Complex64
	})
}

// constOperation reports whether the constant e is an operation (1 + 2,
// ^mask), not a literal or a negated one.
func constOperation(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		return true
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(x.X).(*ast.BasicLit)
		return !lit || x.Op == token.XOR
	}
	return false
}

// constPart reports whether a constant part of e, with its value, is one
// f wants.
func (c *Cell) constPart(e ast.Expr, f func(ast.Expr, constant.Value) bool) bool {
	return contains(e, false, func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok {
			return false
		}
		v := c.Types.Types[x].Value
		return v != nil && f(x, v)
	})
}

// integerOperator reports whether x is an operation Go has for integers
// only (%, shifts, bitwise operators).
func integerOperator(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.REM, token.SHL, token.SHR, token.AND, token.OR, token.XOR, token.AND_NOT:
			return true
		}
	case *ast.UnaryExpr:
		return x.Op == token.XOR
	}
	return false
}

// fitsInteger reports whether the integer type b holds v.
func fitsInteger(v constant.Value, b *types.Basic) bool {
	bits := 64
	switch b.Kind() {
	case types.Int8, types.Uint8:
		bits = 8
	case types.Int16, types.Uint16:
		bits = 16
	case types.Int32, types.Uint32:
		bits = 32
	}
	if b.Info()&types.IsUnsigned != 0 {
		return constant.Sign(v) >= 0 && constant.BitLen(v) <= bits
	}
	lo := constant.Shift(constant.MakeInt64(-1), token.SHL, uint(bits-1))
	hi := constant.BinaryOp(constant.UnaryOp(token.SUB, lo, 0), token.SUB, constant.MakeInt64(1))
	return constant.Compare(v, token.GEQ, lo) && constant.Compare(v, token.LEQ, hi)
}

// convertQuotients converts to t the largest parts of e that are
// untyped integer constants with a division in them (all of e, or 3 / 2
// of 3 / 2 * time.Second).
func (c *Cell) convertQuotients(e ast.Expr, t types.Type) ast.Expr {
	if c.untypedInt(e) && contains(e, false, isQuotient) {
		return c.convertTo(t, e)
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		x.X = c.convertQuotients(x.X, t)
	case *ast.UnaryExpr:
		x.X = c.convertQuotients(x.X, t)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			x.X = c.convertQuotients(x.X, t)
			x.Y = c.convertQuotients(x.Y, t)
		case token.SHL, token.SHR: // (the count has a type of its own)
			x.X = c.convertQuotients(x.X, t)
		}
	}
	return e
}

// inexactConst reports whether e, an arithmetic constant expression its
// context gives the integer type (or type parameter) t, has a part yaegi
// computes in t where Go computes exactly: a value that is not a whole
// number ((1 + 0.5) * 2, 3 / 4.0 * 100: yaegi gave 0) or one of 2^53 or
// more (math.MaxInt64 / 2 went through a float64, 4611686018427387904;
// (1<<63 + 1) / 3 wrapped). Converted as a whole, T(e), it is computed
// as an untyped constant, exactly (a constant conversion yaegi folds,
// interp/cfg.go:1236, through an integer: so not for float types, where
// it would drop the fraction).
func (c *Cell) inexactConst(e ast.Expr, t types.Type) bool {
	if _, ok := ast.Unparen(e).(*ast.BinaryExpr); !ok {
		return false
	}
	if _, param := t.(*types.TypeParam); !param {
		if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return false
		}
	}
	return contains(e, false, func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok {
			return false
		}
		tv, ok := c.Types.Types[x]
		if !ok || tv.Value == nil {
			return false
		}
		switch v := tv.Value; v.Kind() {
		case constant.Float:
			return constant.ToInt(v).Kind() != constant.Int
		case constant.Int:
			return constant.BitLen(v) >= 53 // (of |v|)
		}
		return false
	})
}

func isQuotient(n ast.Node) bool {
	b, ok := n.(*ast.BinaryExpr)
	return ok && b.Op == token.QUO
}

// untypedInt reports whether e is an untyped integer (or rune) constant
// as written: the oracle records the type its context gave it.
func (c *Cell) untypedInt(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR
	case *ast.ParenExpr:
		return c.untypedInt(x.X)
	case *ast.UnaryExpr:
		return (x.Op == token.ADD || x.Op == token.SUB || x.Op == token.XOR) && c.untypedInt(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.SHL, token.SHR:
			return c.untypedInt(x.X) && c.Types.Types[x].Value != nil
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return c.untypedInt(x.X) && c.untypedInt(x.Y)
		}
	case *ast.Ident:
		return untypedIntConst(c.Types.ObjectOf(x))
	case *ast.SelectorExpr:
		return untypedIntConst(c.Types.ObjectOf(x.Sel))
	}
	return false
}

func untypedIntConst(obj types.Object) bool {
	k, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	b, ok := k.Type().(*types.Basic)
	return ok && (b.Kind() == types.UntypedInt || b.Kind() == types.UntypedRune)
}
