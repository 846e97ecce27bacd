package compat

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// constValues: constant declarations that yaegi v0.16.1 evaluates wrongly
// are written out, one name per spec, with the type and exact value the
// type oracle computed:
//
//	const (A Color = iota; B; C)  =>  const (A Color = 0; B Color = 1; C Color = 2)
//
// yaegi repeats an implicit spec's type and values by copying syntax
// (interp/ast.go:740), which loses the type and, with two names on a line,
// the second expression; it counts iota per name, not per spec, when a
// spec has several (interp/gta.go:104); an iota expression the global
// analysis cannot evaluate at once becomes a "constant definition loop"
// (interp/gta.go:93, revisited forever); and a constant from a conversion
// (const F = Celsius(0)) does not compile. So every spec that is implicit,
// mentions iota or has a typed value is rewritten, and so is an untyped
// one that divides (const e = 5 / 2 * 2.0 was 5, yaegi dividing the
// integers as floats; Go: 4) or is a bool other than true or false
// (const eq = 1 == 1, const big = N > 100 && N%2 == 0 were false);
// another untyped spec written with an explicit expression compiles as
// it is and is left alone.
var constValues = Pass{
	Name:     "constvalues",
	Run:      runConstValues,
	Kinds:    []ast.Node{(*ast.GenDecl)(nil)},
	Snippets: []string{"const_typed_iota_group"},
}

func runConstValues(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if gd, ok := n.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				c.writeConsts(gd)
				return false
			}
			return true
		})
	}
}

// writeConsts rewrites the specs of one const declaration that need it.
func (c *Cell) writeConsts(gd *ast.GenDecl) {
	var specs []ast.Spec
	changed := false
	for _, sp := range gd.Specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok || !c.constNeedsValues(vs) {
			specs = append(specs, sp)
			continue
		}
		written, ok := c.constSpecs(vs)
		if !ok {
			specs = append(specs, sp)
			continue
		}
		specs = append(specs, written...)
		changed = true
	}
	if !changed {
		return
	}
	gd.Specs = specs
	if len(specs) != 1 && !gd.Lparen.IsValid() {
		gd.Lparen, gd.Rparen = gd.TokPos, gd.End()
	}
}

// constNeedsValues tells a spec yaegi would get wrong.
func (c *Cell) constNeedsValues(vs *ast.ValueSpec) bool {
	if len(vs.Values) == 0 || vs.Type != nil || len(vs.Names) > 1 {
		return true
	}
	for _, id := range vs.Names {
		obj, ok := c.Types.Defs[id].(*types.Const)
		if ok && !isUntyped(obj.Type()) {
			return true
		}
		if ok && obj.Val().Kind() == constant.Bool && !isIdent(vs.Values[0], "true") && !isIdent(vs.Values[0], "false") {
			// const eq = 1 == 1: yaegi's untyped bool from a comparison
			// or && was false.
			return true
		}
	}
	return contains(vs, false, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && b.Op == token.QUO {
			// 5 / 2 * 2.0: yaegi divided in floats (5, where Go's
			// untyped integers give 2 first, and 4).
			return true
		}
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != "iota" {
			return false
		}
		obj, _ := c.Types.Uses[id].(*types.Const)
		return obj != nil && obj.Pkg() == nil
	})
}

// constSpecs writes a spec as one spec per name with its type and value;
// ok is false when the oracle does not know one, or the cell cannot name
// its type. Blank names are dropped: they declare nothing.
func (c *Cell) constSpecs(vs *ast.ValueSpec) (out []ast.Spec, ok bool) {
	for _, id := range vs.Names {
		if id.Name == "_" {
			continue
		}
		obj, isConst := c.Types.Defs[id].(*types.Const)
		if !isConst || obj.Val().Kind() == constant.Unknown {
			return nil, false
		}
		spec := &ast.ValueSpec{Names: []*ast.Ident{ident(id.Name, id.Pos())}}
		if !isUntyped(obj.Type()) {
			t, ok := c.TypeExpr(obj.Type(), id.Pos())
			if !ok {
				return nil, false
			}
			spec.Type = t
		}
		src, ok := constSource(obj.Val(), obj.Type())
		if !ok {
			return nil, false
		}
		x, err := parser.ParseExpr(src)
		if err != nil {
			return nil, false
		}
		spec.Values = []ast.Expr{AtPos(x, id.Pos())}
		out = append(out, spec)
	}
	return out, true
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// constSource writes a constant value of type t as a Go expression that
// has exactly that value and, for an untyped constant, the same kind
// (rune, float, ...); ok is false when it cannot be written exactly.
func constSource(v constant.Value, t types.Type) (string, bool) {
	b, _ := t.Underlying().(*types.Basic)
	if b == nil {
		return "", false
	}
	info := b.Info()
	switch {
	case info&types.IsBoolean != 0:
		return strconv.FormatBool(constant.BoolVal(v)), true
	case info&types.IsString != 0:
		return strconv.Quote(constant.StringVal(v)), true
	case b.Kind() == types.UntypedRune:
		v = constant.ToInt(v)
		if r, ok := constant.Int64Val(v); ok && r >= 0 && r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF) {
			return strconv.QuoteRune(rune(r)), true
		}
		return "('\\x00' + " + v.ExactString() + ")", v.Kind() == constant.Int
	case info&types.IsInteger != 0:
		v = constant.ToInt(v)
		return v.ExactString(), v.Kind() == constant.Int
	case info&types.IsFloat != 0:
		return floatSource(constant.ToFloat(v))
	case info&types.IsComplex != 0:
		v = constant.ToComplex(v)
		re, ok1 := floatSource(constant.Real(v))
		im, ok2 := floatSource(constant.Imag(v))
		if strings.HasPrefix(im, "(") { // a quotient: no imaginary literal holds it
			return "(" + re + " + " + im + "*1i)", ok1 && ok2
		}
		return "(" + re + " + " + im + "i)", ok1 && ok2
	}
	return "", false
}

// floatSource writes a float constant as a float literal, or as the
// quotient of two when float64 cannot hold it exactly (an untyped 1.0/3;
// a typed constant is already rounded to its type).
func floatSource(v constant.Value) (string, bool) {
	if v.Kind() != constant.Float && v.Kind() != constant.Int {
		return "", false
	}
	if f, exact := constant.Float64Val(v); exact {
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return s, true
	}
	num, den := constant.Num(v), constant.Denom(v)
	if num.Kind() != constant.Int || den.Kind() != constant.Int {
		return "", false
	}
	return "(" + num.ExactString() + ".0 / " + den.ExactString() + ")", true
}
