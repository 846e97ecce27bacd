package compat

import (
	"go/ast"
	"go/types"
)

// typeParamRenames: a type parameter whose name the generic declaration
// also spells for something else: a field (type Pair[A, B any] struct{
// A A; B B }), a selector (p.K), a composite literal's key, a local
// variable, or a field of a struct type the declaration has values of
// (which later passes may select: instanceLits writes Pair[A, B]{x, y}
// as assignments to the fields A and B). yaegi v0.16.1 instantiates a generic declaration by copying
// its tree and replacing every identifier spelled like a type parameter
// with the type argument (interp/generic.go:38, genAST), whatever the
// identifier stands for, so Pair[int, int] got two fields named int
// (reflect.StructOf: "duplicate field") and p.A became p.int. In such a
// declaration the parameter is renamed, in its list and where it is used.
//
// It runs before the passes that rewrite, on the cell as the oracle typed
// it; the oracle writes the new name where a later pass writes a type
// with the parameter in it (TypeString).
var typeParamRenames = Pass{
	Name:     "typeparamrenames",
	Run:      runTypeParamRenames,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil), (*ast.TypeSpec)(nil)},
	Snippets: []string{"generics_type_param_named_like_field", "generics_type_param_named_like_session_var"},
}

func runTypeParamRenames(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			c.nameBlankTypeParams(d)
			c.renameTypeParams(d, funcTypeParams(d))
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams != nil {
					c.renameTypeParams(ts, fieldNames(ts.TypeParams))
				}
			}
		}
	}
}

// nameBlankTypeParams gives a blank type parameter of a method's receiver
// (func (f *Foo[_, _]) String()) a name: the passes that write its type
// (fmtArgs' func(v T) any for f.valueA) cannot write _, which made the
// method fail to compile ("cannot use _ as value"), and with another
// method of Foo naming them, Foo lost its methods ("undefined selector").
func (c *Cell) nameBlankTypeParams(fd *ast.FuncDecl) {
	for _, e := range receiverTypeArgs(fd) {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name != "_" {
			continue
		}
		tn, ok := c.Types.Defs[id].(*types.TypeName)
		if !ok {
			continue
		}
		id.Name = c.Temp("Tblank") + "_"
		c.Types.RenameType(tn, id.Name)
	}
}

// receiverTypeArgs are what the receiver of fd, a method of a generic
// type, names its type parameters (Box[T], *Foo[_, _]); nil for another
// function.
func receiverTypeArgs(fd *ast.FuncDecl) []ast.Expr {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return nil
	}
	recv := fd.Recv.List[0].Type
	if s, ok := recv.(*ast.StarExpr); ok {
		recv = s.X
	}
	_, idx := indexed(recv)
	return idx
}

// fieldNames lists the names a field list declares.
func fieldNames(l *ast.FieldList) []*ast.Ident {
	var out []*ast.Ident
	for _, f := range l.List {
		out = append(out, f.Names...)
	}
	return out
}

// receiverTypeParams are the names of the type parameters in a method's
// receiver type (Pair[A, B], *Pair[A, B]).
// FuncTypeParams are the type parameters of fd, a generic function or a
// method of a generic type (its receiver's).
func FuncTypeParams(fd *ast.FuncDecl) []*ast.Ident { return funcTypeParams(fd) }

func funcTypeParams(fd *ast.FuncDecl) []*ast.Ident {
	var params []*ast.Ident
	if fd.Type.TypeParams != nil {
		params = fieldNames(fd.Type.TypeParams)
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		params = append(params, receiverTypeParams(fd.Recv.List[0].Type)...)
	}
	return params
}

func receiverTypeParams(e ast.Expr) []*ast.Ident {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	var idx []ast.Expr
	switch x := e.(type) {
	case *ast.IndexExpr:
		idx = []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		idx = x.Indices
	}
	var out []*ast.Ident
	for _, i := range idx {
		if id, ok := i.(*ast.Ident); ok && id.Name != "_" {
			out = append(out, id)
		}
	}
	return out
}

// renameTypeParams renames, in decl, each of params that another
// identifier in decl is spelled like.
func (c *Cell) renameTypeParams(decl ast.Node, params []*ast.Ident) {
	objs := map[string]*types.TypeName{}
	for _, p := range params {
		if tn, ok := c.Types.ObjectOf(p).(*types.TypeName); ok {
			objs[p.Name] = tn
		}
	}
	if len(objs) == 0 {
		return
	}
	var uses []*ast.Ident
	clash := map[string]bool{}
	ast.Inspect(decl, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		for _, f := range structFields(c.Types.TypeOf(e)) {
			if _, ok := objs[f]; ok {
				clash[f] = true
			}
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return true
		}
		if tn, ok := objs[id.Name]; ok {
			if c.Types.ObjectOf(id) == tn {
				uses = append(uses, id)
			} else {
				clash[id.Name] = true
			}
		}
		return true
	})
	// A cell type of the same name (type T struct{...} beside func
	// first[T any]): instantiated with it, the instance's T named both,
	// and yaegi failed to compile the call ("rewrite it more plainly"), or
	// took the constraint for the type on a basic type (type K string
	// beside keys[K comparable, V any]: "cannot define new methods on
	// non-local type comparable").
	for _, tn := range c.Types.CellTypes() {
		if tn != objs[tn.Name()] {
			if _, ok := objs[tn.Name()]; ok {
				clash[tn.Name()] = true
			}
		}
	}
	// So too a variable, constant or function of the session (N := 4 in
	// an earlier cell beside func zero[N any]() N { var z N; ... }):
	// yaegi failed to compile the instance ("rewrite it more plainly").
	for name, tn := range objs {
		if obj := c.Types.CellObject(name); obj != nil && obj != types.Object(tn) {
			if _, isType := obj.(*types.TypeName); !isType {
				clash[name] = true
			}
		}
	}
	fresh := map[string]string{}
	for _, p := range params { // in order: the names are the same every time
		name := p.Name
		if !clash[name] || fresh[name] != "" {
			continue
		}
		fresh[name] = c.Temp("T"+name+"_") + "_" // ends: no name is the start of another
		c.Types.RenameType(objs[name], fresh[name])
		if c.renamed == nil {
			c.renamed = map[string]string{}
		}
		c.renamed[fresh[name]] = name
	}
	for _, id := range uses {
		if to, ok := fresh[id.Name]; ok {
			id.Name = to
		}
	}
}

// structFields are the names of the fields of the struct t is, or points
// to, or holds as elements.
func structFields(t types.Type) []string {
	for t != nil {
		switch x := t.Underlying().(type) {
		case *types.Pointer:
			t = x.Elem()
		case *types.Slice:
			t = x.Elem()
		case *types.Array:
			t = x.Elem()
		case *types.Map:
			t = x.Elem()
		case *types.Chan:
			t = x.Elem()
		case *types.Struct:
			names := make([]string, x.NumFields())
			for i := range names {
				names[i] = x.Field(i).Name()
			}
			return names
		default:
			return nil
		}
	}
	return nil
}
