package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// paramLits: a composite literal whose type is a type parameter with a
// slice or map core type (out := S{}, S{x, y} with S ~[]E, M{} with
// M ~map[K]V, the way the slices and maps packages write their helpers)
// is written with make:
//
//	S{}      →  make(S, 0)
//	S{x, y}  →  append(make(S, 0, 2), []E{x, y}...)
//	M{}      →  make(M)
//	M{k: v}  →  func() M { m := make(M, 1); for k, v := range map[K]V{k: v} { m[k] = v }; return m }()
//
// yaegi v0.16.1 compiles an instance with each type parameter replaced by
// a node named by its type argument's id ("main.Path", "[]int",
// interp/generic.go:43), and takes a composite literal's first child for
// its type only if that name is a type in scope (interp/cfg.go:313,
// isType), which only a predeclared type's is: the literal got no type
// ("undefined type"), the instance failed, its error lost, and the call
// of the function failed with "invalid type in assignment" (at top level)
// or an index out of range panic in the interpreter (from a method of a
// generic type). make and append take the parameter as a type. The
// elements go in a literal of the core type ([]E{...}), where elided
// element types and keys keep their meaning; the result has the length
// and capacity Go's literal has (a keyed slice literal's too).
//
// &S{...} is the address of a new variable holding the value, made in
// a function literal. A literal of a type parameter with a struct or
// array core type is refused with what to write instead.
var paramLits = Pass{
	Name:     "paramlits",
	Run:      runParamLits,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"generics_type_param_literal"},
}

func runParamLits(c *Cell) {
	addrs := map[*ast.UnaryExpr]*ast.Ident{} // &S{...}, by S
	c.Apply(func(cur Cursor) bool {
		if u, ok := cur.Node().(*ast.UnaryExpr); ok && addrs[u] != nil {
			// &S{...}: the address of a new variable holding the value.
			pos, v := u.Pos(), c.Temp("PL")
			ptr := &ast.StarExpr{Star: pos, X: ident(addrs[u].Name, pos)}
			cur.Replace(called(funcLit(pos, u.End(), results(ptr),
				define(pos, []ast.Expr{ident(v, pos)}, u.X),
				&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(v, pos)}}})))
			return true
		}
		lit, ok := cur.Node().(*ast.CompositeLit)
		if !ok || lit.Type == nil {
			return true
		}
		id, ok := ast.Unparen(lit.Type).(*ast.Ident)
		if !ok {
			return true
		}
		tp, ok := c.Types.TypeOf(id).(*types.TypeParam)
		if !ok {
			return true
		}
		if u, ok := cur.Parent().(*ast.UnaryExpr); ok && u.Op == token.AND {
			addrs[u] = id
		}
		core := coreType(tp)
		pos := lit.Pos()
		switch ct := core.(type) {
		case *types.Slice:
			cur.Replace(c.sliceParamLit(lit, id, ct, pos))
		case *types.Map:
			cur.Replace(c.mapParamLit(lit, id, ct, pos))
		default:
			instead := "a variable (var v " + id.Name + ") set element by element"
			if core != nil {
				if ct, ok := c.Types.TypeString(core); ok {
					instead = "a conversion of a literal of its core type: " + id.Name + "(" + ct + "{...})"
				}
			}
			c.Fail(pos, "%s{...}: this interpreter cannot compile a composite literal of the type parameter %s unless its core type is a slice or a map; write %s", id.Name, id.Name, instead)
			return false
		}
		return true
	})
}

// sliceParamLit is make(S, 0) for S{}, else append(make(S, 0, n),
// []E{...}...) with n the literal's length.
func (c *Cell) sliceParamLit(lit *ast.CompositeLit, id *ast.Ident, core *types.Slice, pos token.Pos) ast.Expr {
	n, idx := 0, 0
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if v, ok := c.constInt(kv.Key); ok {
				idx = v
			}
		}
		idx++
		n = max(n, idx)
	}
	mk := &ast.CallExpr{Fun: ident("make", pos), Lparen: pos, Args: []ast.Expr{ident(id.Name, pos), intLit(0, pos)}, Rparen: pos}
	if n == 0 {
		return mk
	}
	mk.Args = append(mk.Args, intLit(n, pos))
	ct, ok := c.TypeExpr(core, pos)
	if !ok {
		c.Fail(pos, "%s{...}: this interpreter cannot compile a composite literal of the type parameter %s here; declare a variable (var v %s) and append the elements", id.Name, id.Name, id.Name)
		return lit
	}
	elems := &ast.CompositeLit{Type: ct, Lbrace: lit.Lbrace, Elts: lit.Elts, Rbrace: lit.Rbrace}
	return &ast.CallExpr{Fun: ident("append", pos), Lparen: pos, Args: []ast.Expr{mk, elems}, Ellipsis: lit.Rbrace, Rparen: lit.Rbrace}
}

// mapParamLit is make(M) for M{}, else a function literal that copies a
// literal of the core type into make(M, n).
func (c *Cell) mapParamLit(lit *ast.CompositeLit, id *ast.Ident, core *types.Map, pos token.Pos) ast.Expr {
	if len(lit.Elts) == 0 {
		return &ast.CallExpr{Fun: ident("make", pos), Lparen: pos, Args: []ast.Expr{ident(id.Name, pos)}, Rparen: pos}
	}
	ct, ok := c.TypeExpr(core, pos)
	if !ok {
		c.Fail(pos, "%s{...}: this interpreter cannot compile a composite literal of the type parameter %s here; make it (m := make(%s)) and set its keys", id.Name, id.Name, id.Name)
		return lit
	}
	m, k, v := c.Temp("M"), c.Temp("K"), c.Temp("V")
	mk := &ast.CallExpr{Fun: ident("make", pos), Lparen: pos, Args: []ast.Expr{ident(id.Name, pos), intLit(len(lit.Elts), pos)}, Rparen: pos}
	loop := &ast.RangeStmt{
		For: pos, Key: ident(k, pos), Value: ident(v, pos), Tok: token.DEFINE,
		X: &ast.CompositeLit{Type: ct, Lbrace: lit.Lbrace, Elts: lit.Elts, Rbrace: lit.Rbrace},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.AssignStmt{
			Lhs: []ast.Expr{&ast.IndexExpr{X: ident(m, pos), Lbrack: pos, Index: ident(k, pos), Rbrack: pos}},
			Tok: token.ASSIGN, TokPos: pos, Rhs: []ast.Expr{ident(v, pos)},
		}}, Rbrace: pos},
	}
	return called(funcLit(pos, lit.End(), results(ident(id.Name, pos)),
		define(pos, []ast.Expr{ident(m, pos)}, mk),
		loop,
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(m, pos)}}))
}

// constInt is the value of the constant integer expression e, by the
// oracle.
func (c *Cell) constInt(e ast.Expr) (int, bool) {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return int(v), exact
}

// coreType is the underlying type every type in tp's type set has, nil if
// there is none or the constraint has no type terms.
func coreType(tp *types.TypeParam) types.Type {
	var core types.Type
	for _, u := range termTypes(tp) {
		if core == nil {
			core = u
		} else if !types.Identical(core, u) {
			return nil
		}
	}
	return core
}

// termTypes are the underlying types of the type terms of tp's
// constraint (through unions and embedded interfaces); none when it has
// no type terms.
func termTypes(tp *types.TypeParam) []types.Type {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []types.Type
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch x := types.Unalias(t).(type) {
		case *types.Union:
			for i := range x.Len() {
				walk(x.Term(i).Type())
			}
		default:
			if in, ok := x.Underlying().(*types.Interface); ok {
				for i := range in.NumEmbeddeds() {
					walk(in.EmbeddedType(i))
				}
				return
			}
			out = append(out, x.Underlying())
		}
	}
	for i := range iface.NumEmbeddeds() {
		walk(iface.EmbeddedType(i))
	}
	return out
}
