package compat

import (
	"go/ast"
	"go/constant"
	"go/types"

	"grundy/engine/prelude"
)

// paramConv: in the methods of the cell's generic types, and the cell's
// generic functions they call, a conversion T(x) to a type parameter of
// numbers or strings becomes _grundyConvert[T, X](x), X being x's type.
// yaegi v0.16.1 compiles an instance of a generic function or method with
// T replaced by a node named by its type argument's id ("main.Nimber",
// interp/generic.go:43), and a call of that node is a conversion only if
// the name is a type in scope (interp/cfg.go:2544, isType), which only a
// predeclared type's is: T(i) in a method of Vec[Nimber] failed with "too
// many arguments". A generic function called from a cell goes as a copy
// with its types written in (see copyNeeds), and keeps Go's conversion;
// a method cannot, nor a generic function a method calls.
//
// The prelude's converter only declares variables of types T and X and
// converts by Go's rules (reflect's Convert), x passed as an X, not in an
// interface, where a value of a type with methods would be boxed; it
// converts to a type of another package too (time.Duration), which a
// conversion of one-element arrays ([1]T([1]int64{...})), faster, could
// not. Two type arguments: a lone one that is a type parameter is looked
// up by name in an instance (see padTypeParam). In an element of a
// composite literal, whose type yaegi asks of the called function and of
// f[X, Y] cannot give (interp/type.go:870, "not a generic type"), the call
// is in a function literal of result type T. A constant that its default
// type cannot hold exactly (T(0.1)) is left alone: converted twice it
// could round differently.
var paramConv = Pass{
	Name:     "paramconv",
	Run:      runParamConv,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"generics_method_conversion_named_type"},
}

func runParamConv(c *Cell) {
	for _, fd := range c.methodReach() {
		applyIn(fd, func(cur Cursor) bool {
			if r := c.paramConversion(cur); r != nil {
				cur.Replace(r)
			}
			return true
		})
	}
}

// methodReach are the methods of the cell's generic types and the cell's
// generic functions they call, themselves or through each other: the
// functions yaegi instantiates with a type argument's node (a generic
// function called from a cell goes as a copy, whose conversions are
// Go's).
func (c *Cell) methodReach() []*ast.FuncDecl {
	if c.Decls == nil {
		return nil
	}
	funcs := map[string]*ast.FuncDecl{}
	var out []*ast.FuncDecl
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		switch {
		case !ok || fd.Body == nil:
		case fd.Recv == nil && fd.Type.TypeParams != nil:
			funcs[fd.Name.Name] = fd
		case fd.Recv != nil && len(fd.Recv.List) > 0 && isInstantiation(fd.Recv.List[0].Type):
			out = append(out, fd)
		}
	}
	for i := 0; i < len(out); i++ {
		ast.Inspect(out[i].Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := unindex(call.Fun).(*ast.Ident); ok && funcs[id.Name] != nil {
					out = append(out, funcs[id.Name])
					delete(funcs, id.Name)
				}
			}
			return true
		})
	}
	return out
}

// paramConversion is what a conversion T(x) to a type parameter of
// numbers or strings becomes, nil for other nodes.
func (c *Cell) paramConversion(cur Cursor) ast.Expr {
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
	if !ok {
		return nil
	}
	tp, ok := tn.Type().(*types.TypeParam)
	if !ok {
		return nil
	}
	if !basicTerms(tp.Constraint()) {
		return nil
	}
	pos, end := call.Pos(), call.End()
	xt := c.Types.TypeOf(call.Args[0])
	if xt == nil || !exactAsDefault(c.Types.Types[call.Args[0]]) {
		return nil
	}
	x, ok := c.TypeExpr(types.Default(xt), call.Args[0].Pos())
	if !ok {
		return nil
	}
	conv := &ast.CallExpr{Lparen: call.Lparen, Args: call.Args, Rparen: call.Rparen}
	conv.Fun = withTypeArgs(ident(prelude.Convert, call.Fun.Pos()), append([]ast.Expr{ident(id.Name, id.Pos())}, c.instanceAliases([]ast.Expr{x})...))
	switch cur.Parent().(type) {
	case *ast.CompositeLit, *ast.KeyValueExpr:
		return &ast.CallExpr{Fun: &ast.FuncLit{
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: ident(id.Name, id.Pos())}}}},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{conv}}}, Rbrace: end},
		}, Lparen: end, Rparen: end}
	}
	return conv
}

// exactAsDefault reports whether a constant operand keeps its value in
// its default type, so that converting that to T rounds as Go's constant
// conversion does: T(0.1) with T a float32 would be rounded twice.
func exactAsDefault(tv types.TypeAndValue) bool {
	if tv.Value == nil || tv.Value.Kind() != constant.Float {
		return true
	}
	_, exact := constant.Float64Val(tv.Value)
	return exact
}

// basicTerms reports whether a constraint's type set is made of basic
// types only (~int | ~float64, cmp.Ordered): the numbers and strings
// paramConv converts. Others (P(&x) with P constrained to *T) go on to
// copies (see copyNeeds).
func basicTerms(constraint types.Type) bool {
	iface, ok := constraint.Underlying().(*types.Interface)
	if !ok || iface.NumEmbeddeds() == 0 {
		return false
	}
	basic := func(t types.Type) bool {
		if _, ok := t.Underlying().(*types.Interface); ok {
			return basicTerms(t)
		}
		_, ok := t.Underlying().(*types.Basic)
		return ok
	}
	for i := range iface.NumEmbeddeds() {
		e := iface.EmbeddedType(i)
		u, ok := e.(*types.Union)
		if !ok {
			if !basic(e) {
				return false
			}
			continue
		}
		for j := range u.Len() {
			if !basic(u.Term(j).Type()) {
				return false
			}
		}
	}
	return true
}
