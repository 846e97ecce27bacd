package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// genericMethods: an instance of a cell's generic type with a type
// argument that is not predeclared (Vec[Nimber]), whose methods use a type
// parameter as a value in a way paramConv does not rewrite (a conversion
// P(&x) to a type parameter constrained to a pointer, one in a generic
// function of an earlier cell, compiled as it was, a generic call
// []T{Id(x)} in a composite literal), is refused. yaegi v0.16.1 compiles
// the methods of such an instance, where it makes it or where they are
// called, as it does an instance of a generic function (see copyNeeds):
// the type parameter is a node named "main.Nimber", which it cannot find
// where a type is used as a value, and the method fails with a message
// about its own internals. A generic function is called as a copy with
// its types written in; a method cannot be, so the cell is stopped before
// it runs. It runs after paramConv, on the methods as that left them.
var genericMethods = Pass{
	Name:     "genericmethods",
	Run:      runGenericMethods,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil), (*ast.CallExpr)(nil)},
	Snippets: []string{"generics_method_composite_call_refused"},
}

func runGenericMethods(c *Cell) {
	checked := map[string]bool{}
	c.Apply(func(cur Cursor) bool {
		var e ast.Expr
		switch n := cur.Node().(type) {
		case *ast.IndexExpr, *ast.IndexListExpr, *ast.CallExpr:
			e = n.(ast.Expr)
		default:
			return c.err == nil
		}
		// Written (Memo[Nimber]{}) or made by a generic function
		// (NewMemo[Nimber](1, 2), a *Memo[Nimber]).
		t := types.Unalias(c.Types.TypeOf(e))
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		named, ok := t.(*types.Named)
		if !ok || named.TypeArgs().Len() == 0 || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "main" {
			return true
		}
		predeclared := true
		for i := range named.TypeArgs().Len() {
			t := named.TypeArgs().At(i)
			if hasTypeParam(t) {
				return true
			}
			if _, basic := types.Unalias(t).(*types.Basic); !basic {
				predeclared = false
			}
		}
		src, _ := c.Types.TypeString(named)
		if predeclared || checked[src] {
			return true
		}
		checked[src] = true
		typ := named.Origin().Obj().Name()
		for i := range named.NumMethods() {
			m := named.Method(i).Name()
			if c.methodUsesParamAsValue(typ, m) {
				c.Fail(e.Pos(), "%s: its method %s uses a type parameter as a value in a way this interpreter cannot compile for a type argument that is not predeclared (a generic call in a composite literal, []T{Id(x)}; a conversion P(x) to a type parameter that is not a number or a string; or any conversion T(x) in a generic function of an earlier cell that it calls); move such a call out of the literal (y := Id(x); []T{y}), declare the generic functions the method calls in the type's cell, or instantiate %s with the basic type", src, m, typ)
				return false
			}
		}
		return true
	})
}

// methodUsesParamAsValue reports whether the method m of the cell's
// generic type typ uses one of its type parameters as a value (see
// paramAsValue), itself or through a generic function of the cell it calls (which it
// calls as an instance, not a copy: its type arguments are the method's
// parameters).
func (c *Cell) methodUsesParamAsValue(typ, m string) bool {
	fd := c.funcDecl(typ + "." + m)
	if fd == nil || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	params := map[string]bool{}
	rt := fd.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		rt = s.X
	}
	_, args := indexed(rt)
	for _, a := range args {
		if id, ok := a.(*ast.Ident); ok {
			params[id.Name] = true
		}
	}
	return c.usesParamsAsValues(fd.Body, params, map[string]bool{})
}

// laterMethods: a method declared in a later cell than its generic type
// (cell 1: type Stack[T any] ...; cell 2: func (s *Stack[T]) Len() int),
// once a cell has used the type (made an instance of it, declared a
// variable or a function with it), is refused, with the way that works
// (before that, the engine adds the type and its earlier methods to the
// cell from their text: engine.laterMethodTypes, and the cell does not
// come here). The type oracle cannot add a
// method to a generic type whose instances earlier cells already use
// (go/types expands an instance's methods from its type once), and
// checked as a function of its receiver the method has no type
// parameters: it failed with "undefined: T". (A method of a type of an
// earlier cell that shadows a method the type has from an embedded field
// makes the engine start a new interpreter: engine.overridesPromoted.)
var laterMethods = Pass{
	Name:     "latermethods",
	Run:      runLaterMethods,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"generics_method_in_later_cell_refused"},
}

func runLaterMethods(c *Cell) {
	if c.Decls == nil {
		return
	}
	declared := map[string]bool{}
	for _, d := range c.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				declared[sp.(*ast.TypeSpec).Name.Name] = true
			}
		}
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
			continue
		}
		base := recvName(fd.Recv.List[0].Type)
		if base == "" || declared[base] {
			continue
		}
		tn, ok := c.Types.Pkg.Scope().Lookup(base).(*types.TypeName)
		if !ok {
			continue
		}
		if named, ok := types.Unalias(tn.Type()).(*types.Named); ok && named.TypeParams().Len() > 0 {
			c.Fail(fd.Name.Pos(), "method %s of the generic type %s, declared in an earlier cell and used since (the interpreter gives an instance its methods when it makes it): declare a generic type's methods in the cell that declares the type, or before a cell uses it (add %s there and run that cell again)", fd.Name.Name, base, fd.Name.Name)
			return
		}
	}
}

// PromotedFrom names the embedded field of the struct type t whose method
// name t has by promotion (the shallowest), "" if none: a method a later
// cell declares on t under that name shadows it. (Values of t an earlier
// cell converted to a native interface keep the promoted method: yaegi
// v0.16.1 binds an interface wrapper's methods when it converts the
// value, and fmt.Stringer's String of a D{A} said A's where Go calls D's,
// silently.)
func PromotedFrom(t types.Type, name string) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		typ := f.Type() // (an embedded interface's methods are its own)
		if !types.IsInterface(typ) {
			typ = types.NewPointer(deref(typ))
		}
		if obj, _, _ := types.LookupFieldOrMethod(typ, true, f.Pkg(), name); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				return f.Name()
			}
		}
	}
	return ""
}
