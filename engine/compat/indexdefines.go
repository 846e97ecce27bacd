package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// indexDefines: a variable a cell's statements declare without a type,
// whose value indexes a string, a pointer to an array or a value yaegi
// holds as a native one (d := s[1] - '0', var b = p[0], w := rs[0] with
// rs := strings.Split(...), x := c.Max[0] with c a *solve.Comparison,
// y := p[0] ^ p[1] with p a games.Pos), or indexes or selects from a
// parenthesized dereference (y := (*p).Y, z := (*ps)[0]), gets its
// value's type written as a conversion: d := uint8(s[1] - '0'). yaegi
// v0.16.1's global analysis types the variables that top-level
// statements declare, and those of the headers of their loops, ifs and
// switches (interp/gta.go:42; it skips only blocks and functions), from
// their values, and has no type for an index of a string or of an array
// pointer, nor of a value whose type is native (the result of a native
// call, a field of a native struct, a variable defined from one, a
// native named type: interp/type.go:829 knows its own arrays, maps and
// slices, not reflect's), nor for an element or field of a parenthesized
// dereference: the cell failed with "constant definition loop", a nil
// pointer dereference or an index out of range in the compiler. A
// conversion it types.
var indexDefines = Pass{
	Name:     "indexdefines",
	Run:      runIndexDefines,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.ParenExpr)(nil)},
	Snippets: []string{"index_string_top_level_define"},
}

func runIndexDefines(c *Cell) {
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			c.typeIndexDefines(s)
		}
	}
}

// typeIndexDefines converts the values of the definitions the global
// analysis types in s: s itself, and the headers of the statements it
// walks into.
func (c *Cell) typeIndexDefines(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
			c.typeIndexValues(x.Rhs)
		}
	case *ast.DeclStmt:
		if gd, ok := x.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok && vs.Type == nil && len(vs.Names) == len(vs.Values) {
					c.typeIndexValues(vs.Values)
				}
			}
		}
	case *ast.LabeledStmt:
		c.typeIndexDefines(x.Stmt)
	case *ast.ForStmt:
		c.typeIndexDefines(x.Init)
	case *ast.IfStmt:
		c.typeIndexDefines(x.Init)
		c.typeIndexDefines(x.Else)
	case *ast.SwitchStmt:
		c.typeIndexDefines(x.Init)
	case *ast.TypeSwitchStmt:
		c.typeIndexDefines(x.Init)
	}
}

func (c *Cell) typeIndexValues(values []ast.Expr) {
	for i, v := range values {
		if !c.untypableIndex(v) {
			continue
		}
		t := c.Types.TypeOf(v)
		if t == nil || isUntyped(t) {
			continue
		}
		values[i] = c.convertTo(t, v)
	}
}

// untypableIndex reports whether e's type, as yaegi works it out through
// operators, selectors, indexes and slices, comes from an index of a
// string, of a pointer to an array or of a value that may be native
// (mayBeNative), or from an index or selector on a parenthesized
// dereference.
func (c *Cell) untypableIndex(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.untypableIndex(x.X)
	case *ast.UnaryExpr:
		return c.untypableIndex(x.X)
	case *ast.StarExpr:
		return c.untypableIndex(x.X)
	case *ast.SelectorExpr:
		return parenDeref(x.X) || c.untypableIndex(x.X)
	case *ast.BinaryExpr:
		return c.untypableIndex(x.X) || c.untypableIndex(x.Y)
	case *ast.SliceExpr:
		return c.untypableIndex(x.X)
	case *ast.IndexExpr:
		if parenDeref(x.X) {
			return true
		}
		switch t := c.Types.TypeOf(x.X).(type) {
		case nil:
			return false
		case *types.Pointer:
			_, array := t.Elem().Underlying().(*types.Array)
			return array
		default:
			b, ok := t.Underlying().(*types.Basic)
			return ok && b.Info()&types.IsString != 0 || mayBeNative(t) || c.untypableIndex(x.X)
		}
	}
	return false
}

// mayBeNative reports whether yaegi may hold a value of type t as a
// native one, which it cannot index in its global analysis: t is an
// array, slice or map of no cell type (a variable of such a type may
// have been defined from a native call, in this cell or an earlier one)
// whose elements are not interfaces (those it types). Converting a value
// of t that yaegi holds as its own costs one conversion at top level.
func mayBeNative(t types.Type) bool {
	elem := indexedElem(t)
	return elem != nil && !types.IsInterface(elem) && !mentionsCellType(t)
}

// indexedElem is the element type of an array, slice or map type, nil for
// others.
func indexedElem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return nil
}

// parenDeref reports whether e is a parenthesized dereference, (*p).
func parenDeref(e ast.Expr) bool {
	_, paren := e.(*ast.ParenExpr)
	_, star := ast.Unparen(e).(*ast.StarExpr)
	return paren && star
}
