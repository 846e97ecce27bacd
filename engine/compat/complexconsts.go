package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// complexConsts: a call of the builtin complex, real or imag whose value
// is a constant is written as that constant. yaegi v0.16.1 folds such a
// call itself but keeps untyped complex constants as go/constant values,
// which its real and imag read with reflect.Value.Complex
// (interp/run.go:4076 and :4084, realConst and imagConst: "call of
// reflect.Value.Complex on interface Value"), and its type check of
// complex calls a native package's untyped float constant (math.Pi) an
// "untyped float64" unlike the literal's "untyped float"
// (interp/typecheck.go:822: "mismatched types untyped float and untyped
// float64"; interp/type.go:619, in a declaration: "invalid types int and
// struct"), so real(3+4i), imag(c) of a constant c and complex(0,
// math.Pi) did not compile. The oracle has the exact value, of the same
// kind and type:
//
//	real(3 + 4i)         =>  3.0
//	complex(0, math.Pi)  =>  (0.0 + (884279719003555.0 / 281474976710656)*1i)
//	imag(complex64(c))   =>  (float32)(2.0)
//
// The operand of a conversion that is a typed complex constant is written
// so too (here, and in the conversions other passes write: convertTo): yaegi's conversion of a typed complex constant hands
// reflect.Value.Convert an int64 ("value of type int64 cannot be
// converted to type complex128"), so complex128(q) of a const q
// complex64 did not compile:
//
//	complex128(q)  =>  complex128((0.10000000149011612 + 0.20000000298023224i))
//	T(w)           =>  T((0.0 + 2.0i))    (in a generic function)
//
// and a map's key, an operand of == or !=, or one converted to an
// interface, is that value converted to its type: yaegi looked m[q] up as
// a constant.Value (a panic in reflect.Value.MapIndex), found w == cc
// false for a var w C = 3+4i and const cc C = 3+4i of a type C complex128
// with methods, and made any(q) a complex128:
//
//	m[q]    =>  m[complex64((0.10000000149011612 + 0.20000000298023224i))]
//	w == cc =>  w == C((3.0 + 4.0i))
var complexConsts = Pass{
	Name:     "complexconsts",
	Run:      runComplexConsts,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.IndexExpr)(nil), (*ast.BinaryExpr)(nil)},
	Snippets: []string{"complex_constant_builtins", "complex_constant_quotients", "complex_typed_constant_conversion", "complex_typed_constant_key", "complex_typed_constant_generic", "complex_typed_constant_operands"},
}

func runComplexConsts(c *Cell) {
	for _, root := range c.Roots() {
		if contains(root, false, c.isComplexConst) {
			applyIn(root, c.complexConst)
		}
	}
}

func (c *Cell) isComplexBuiltin(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || !c.isBuiltin(call.Fun) {
		return false
	}
	switch call.Fun.(*ast.Ident).Name {
	case "complex", "real", "imag":
		return true
	}
	return false
}

// isComplexConst: a complex, real or imag call, or an expression with a
// typed complex constant as an operand yaegi gets wrong (complexOperands).
func (c *Cell) isComplexConst(n ast.Node) bool {
	return c.isComplexBuiltin(n) || c.complexQuotient(n) || len(c.complexOperands(n)) > 0
}

// complexQuotient reports whether n is a quotient of constants whose value
// is complex (1i * math.Pi / 4, (2+1i) / 2): yaegi v0.16.1 cannot divide
// an untyped complex constant by an integer one ("invalid binary
// operation (0 + 1i) /= 4"), and the cell did not compile.
func (c *Cell) complexQuotient(n ast.Node) bool {
	b, ok := n.(*ast.BinaryExpr)
	if !ok || b.Op != token.QUO {
		return false
	}
	tv := c.Types.Types[b]
	return tv.Value != nil && tv.Value.Kind() == constant.Complex
}

// complexOperands are the places in n holding a typed complex constant
// that yaegi gets wrong: the operand of a conversion, a map's key, an
// operand of == or !=.
func (c *Cell) complexOperands(n ast.Node) []*ast.Expr {
	var places []*ast.Expr
	switch n := n.(type) {
	case *ast.CallExpr:
		if len(n.Args) == 1 && c.Types.IsType(n.Fun) {
			places = append(places, &n.Args[0])
		}
	case *ast.IndexExpr:
		if _, isMap := typeUnder(c.Types.TypeOf(n.X)).(*types.Map); isMap {
			places = append(places, &n.Index)
		}
	case *ast.BinaryExpr:
		if n.Op == token.EQL || n.Op == token.NEQ {
			places = append(places, &n.X, &n.Y)
		}
	}
	return slices.DeleteFunc(places, func(e *ast.Expr) bool { return !c.typedComplexConst(*e) })
}

// typedComplexConst reports whether e is a constant of a complex type
// (not untyped).
func (c *Cell) typedComplexConst(e ast.Expr) bool {
	tv := c.Types.Types[e]
	if tv.Value == nil || tv.Type == nil {
		return false
	}
	b, _ := tv.Type.Underlying().(*types.Basic)
	return b != nil && b.Info()&types.IsComplex != 0 && c.typedConstOperand(e)
}

// exactComplex is e as an operand yaegi can convert: a typed complex
// constant written as its exact untyped value, typed as e was; other
// expressions as they are.
func (c *Cell) exactComplex(e ast.Expr) ast.Expr {
	if !c.typedComplexConst(e) {
		return e
	}
	tv := c.Types.Types[e]
	x := c.constExpr(tv.Value, types.Typ[types.UntypedComplex], e.Pos())
	if x == nil {
		return e
	}
	c.Types.Types[x] = tv
	return x
}

// typedConstOperand reports whether constant expression x involves a typed
// constant or a conversion. (Its recorded type cannot tell: the oracle
// records an untyped operand with the type it is converted to.)
func (c *Cell) typedConstOperand(x ast.Expr) bool {
	return contains(x, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			k, ok := c.Types.ObjectOf(n).(*types.Const)
			return ok && !isUntyped(k.Type())
		case *ast.CallExpr:
			return c.Types.IsType(n.Fun)
		}
		return false
	})
}

// complexConst replaces a constant call with its value (post-order, so an
// outer call is asked about after its arguments were written: the oracle
// typed the original outer node).
func (c *Cell) complexConst(cur Cursor) bool {
	if !c.isComplexConst(cur.Node()) {
		return true
	}
	if places := c.complexOperands(cur.Node()); len(places) > 0 {
		// Only the operands are written: the node stays, which later
		// passes ask the oracle about (a cell type's conversion keeps its
		// name for %T). Converted to a complex type (or a type parameter),
		// an operand is the exact value; elsewhere that value converted
		// to its type (any(q) keeps its complex64).
		call, isCall := cur.Node().(*ast.CallExpr)
		for _, e := range places {
			tv := c.Types.Types[*e]
			if isCall && c.maybeComplex(c.Types.TypeOf(call.Fun)) {
				*e = c.exactComplex(*e)
			} else {
				*e = c.convertTo(tv.Type, *e)
				c.Types.Types[*e] = tv
			}
		}
		return true
	}
	e := cur.Node().(ast.Expr)
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil {
		return true
	}
	if x := c.constExpr(tv.Value, tv.Type, e.Pos()); x != nil {
		cur.Replace(x)
	}
	return true
}
