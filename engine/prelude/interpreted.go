package prelude

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ast/astutil"
)

// interpreted is a std file as the interpreter compiles it; names are
// what the std packages declare. The files
// declare Go's API: slices.Clone[S ~[]E, E any](s S) S. yaegi v0.16.1 can
// neither infer E from such a constraint nor instantiate it ("undefined
// type for E"), so each type parameter whose constraint is one ~[]E or
// ~map[K]V term is replaced, in its function, by that type:
// Clone[E any](s []E) []E. CoreParam tells the passes which type
// arguments the interpreter's functions take. And yaegi cannot pass
// values of the generic types iter.Seq and iter.Seq2 between packages, so
// the functions take and return the function types those stand for,
// which are assignable to them.
//
// Constraints lose their type terms (looseConstraints).
//
// Last, every generic function is renamed (StdFuncName): yaegi caches a
// generic function's instances by the function's name and type
// arguments alone (interp/generic.go:152), so a cell's own Keys[string,
// int] and maps.Keys[string, int] were one instance, whichever came
// first.
func interpreted(name, src string, names stdDecls) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		if fn := seqFuncType(c.Node(), f.Name.Name); fn != nil {
			c.Replace(fn)
		}
		return true
	}, nil)
	if !mentions(f, "iter") {
		astutil.DeleteImport(fset, f, "grundy/engine/prelude/std/iter")
		astutil.DeleteImport(fset, f, "iter")
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Type.TypeParams == nil {
			continue
		}
		subst := map[string]ast.Expr{}
		var keep []*ast.Field
		for _, field := range fd.Type.TypeParams.List {
			if core := coreTypeExpr(field.Type); core != nil {
				for _, n := range field.Names {
					subst[n.Name] = core
				}
				continue
			}
			keep = append(keep, field)
		}
		if len(subst) == 0 {
			continue
		}
		fd.Type.TypeParams.List = keep
		if len(keep) == 0 {
			fd.Type.TypeParams = nil
		}
		astutil.Apply(fd, func(c *astutil.Cursor) bool {
			if id, ok := c.Node().(*ast.Ident); ok {
				if core, ok := subst[id.Name]; ok {
					c.Replace(cloneExpr(core))
				}
			}
			return true
		}, nil)
	}
	looseConstraints(f, names.typeSets)
	generics := names.generics
	own := generics[f.Name.Name]
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		switch x := c.Node().(type) {
		case *ast.SelectorExpr:
			if p, ok := x.X.(*ast.Ident); ok && generics[p.Name][x.Sel.Name] {
				x.Sel.Name = StdFuncName(p.Name, x.Sel.Name)
			}
		case *ast.Ident:
			if _, sel := c.Parent().(*ast.SelectorExpr); sel && c.Name() == "Sel" {
				break
			}
			if own[x.Name] {
				x.Name = StdFuncName(f.Name.Name, x.Name)
			}
		}
		return true
	}, nil)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return "", err
	}
	// Once more: the new nodes have no positions to lay out by.
	out, err := format.Source(b.Bytes())
	return string(out), err
}

// looseConstraints writes the constraints of f's type parameters that
// are interfaces of type terms only (cmp.Ordered, of typeSets) as any, and
// leaves the type terms out of its interface types (DropTypeTerms). yaegi
// v0.16.1 checks a type argument against a constraint's type terms by the
// id of the argument's underlying type, which a type of a native package
// (time.Duration) does not have: slices.Max of []time.Duration failed
// with a nil dereference (interp/generic.go:303, checkConstraint). The
// type oracle checks instantiations against the real constraints, and
// yaegi compiles each instance with its type arguments written in, so the
// terms serve it for nothing else. (The declaration of cmp.Ordered is not
// the interpreter's: yaegi compiles its own cmp, maps and slices when the
// standard library is loaded, and a package's first declaration of a name
// stays.) The compatibility passes do the same to cells, with the oracle
// to tell a type term (compat's constraintTerms).
func looseConstraints(f *ast.File, typeSets map[string]map[string]bool) {
	DropTypeTerms(f)
	loose := func(l *ast.FieldList) {
		if l == nil {
			return
		}
		for _, field := range l.List {
			switch c := field.Type.(type) {
			case *ast.Ident:
				if typeSets[f.Name.Name][c.Name] {
					field.Type = ast.NewIdent("any")
				}
			case *ast.SelectorExpr:
				if p, ok := c.X.(*ast.Ident); ok && typeSets[p.Name][c.Sel.Name] {
					field.Type = ast.NewIdent("any")
				}
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			loose(d.Type.TypeParams)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					loose(ts.TypeParams)
				}
			}
		}
	}
}

// DropTypeTerms leaves the type terms (~int | ~string) out of the
// interface types in n (see looseConstraints).
func DropTypeTerms(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		it, ok := n.(*ast.InterfaceType)
		if !ok || it.Methods == nil {
			return true
		}
		var keep []*ast.Field
		for _, f := range it.Methods.List {
			if len(f.Names) > 0 || !isTypeTerm(f.Type) {
				keep = append(keep, f)
			}
		}
		it.Methods.List = keep
		return true
	})
}

// mentions reports whether f refers to package pkg (pkg.Name).
func mentions(f *ast.File, pkg string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == pkg {
				found = true
			}
		}
		return !found
	})
	return found
}

// seqFuncType is the function type of an iter.Seq[V] or iter.Seq2[K, V]
// (Seq[V] in package iter), or nil.
func seqFuncType(n ast.Node, pkg string) ast.Expr {
	var fun ast.Expr
	var args []ast.Expr
	switch x := n.(type) {
	case *ast.IndexExpr:
		fun, args = x.X, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		fun, args = x.X, x.Indices
	default:
		return nil
	}
	name := ""
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "iter" {
			name = f.Sel.Name
		}
	case *ast.Ident:
		if pkg == "iter" {
			name = f.Name
		}
	}
	if name == "Seq" && len(args) == 1 || name == "Seq2" && len(args) == 2 {
		var params []*ast.Field
		for _, a := range args {
			params = append(params, &ast.Field{Type: a})
		}
		yield := &ast.FuncType{Params: &ast.FieldList{List: params}, Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("bool")}}}}
		return &ast.FuncType{Params: &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ast.NewIdent("yield")}, Type: yield}}}}
	}
	return nil
}

// StdFuncName is the name the interpreter's form of the engine's package
// pkg gives its generic function name (see interpreted).
func StdFuncName(pkg, name string) string { return name + "_" + pkg }

// stdDecls are names the std packages declare, by package: generic
// functions (renamed, see StdFuncName), and interfaces of type terms only
// (cmp.Ordered; see looseConstraints).
type stdDecls struct {
	generics, typeSets map[string]map[string]bool
}

func declaredNames(sources map[string][]File) stdDecls {
	out := stdDecls{generics: map[string]map[string]bool{}, typeSets: map[string]map[string]bool{}}
	for p, files := range sources {
		out.generics[p] = map[string]bool{}
		out.typeSets[p] = map[string]bool{}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file.Name, file.Src, parser.SkipObjectResolution)
			if err != nil {
				panic("prelude: " + err.Error()) // embedded, and tested
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Type.TypeParams != nil {
						out.generics[p][d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						if ts, ok := sp.(*ast.TypeSpec); ok && onlyTypeTerms(ts.Type) {
							out.typeSets[p][ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// onlyTypeTerms reports whether t is an interface type whose elements are
// all unions or ~T terms.
func onlyTypeTerms(t ast.Expr) bool {
	it, ok := t.(*ast.InterfaceType)
	if !ok || it.Methods == nil || len(it.Methods.List) == 0 {
		return false
	}
	for _, f := range it.Methods.List {
		if len(f.Names) > 0 || !isTypeTerm(f.Type) {
			return false
		}
	}
	return true
}

// isTypeTerm reports whether an interface element is a union or ~T.
func isTypeTerm(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.OR
	case *ast.UnaryExpr:
		return x.Op == token.TILDE
	}
	return false
}

// coreTypeExpr is T when the constraint e is ~T with T a slice or map type.
func coreTypeExpr(e ast.Expr) ast.Expr {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.TILDE {
		return nil
	}
	switch t := u.X.(type) {
	case *ast.ArrayType:
		if t.Len == nil {
			return t
		}
	case *ast.MapType:
		return t
	}
	return nil
}

// CoreParam reports whether the interpreter's form of an engine package's
// function has no type parameter tp (see interpreted): the type argument
// Go infers for it is not given to the interpreter.
func CoreParam(tp *types.TypeParam) bool {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok || iface.NumEmbeddeds() != 1 || iface.NumMethods() != 0 {
		return false
	}
	u, ok := iface.EmbeddedType(0).(*types.Union)
	if !ok || u.Len() != 1 || !u.Term(0).Tilde() {
		return false
	}
	switch u.Term(0).Type().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// cloneExpr copies a type expression (each use gets its own nodes).
func cloneExpr(e ast.Expr) ast.Expr {
	switch t := e.(type) {
	case *ast.Ident:
		return &ast.Ident{Name: t.Name}
	case *ast.ArrayType:
		return &ast.ArrayType{Len: t.Len, Elt: cloneExpr(t.Elt)}
	case *ast.MapType:
		return &ast.MapType{Key: cloneExpr(t.Key), Value: cloneExpr(t.Value)}
	case *ast.SelectorExpr:
		return &ast.SelectorExpr{X: cloneExpr(t.X), Sel: &ast.Ident{Name: t.Sel.Name}}
	case *ast.StarExpr:
		return &ast.StarExpr{X: cloneExpr(t.X)}
	}
	return e
}

// StdGenericTypes are the names of the generic types the engine's source
// packages declare (iter's Seq and Seq2). yaegi v0.16.1 confuses a cell's
// generic function of one of these names with the package's type when
// it instantiates them (func Seq[T any](xs ...T) iter.Seq[T] failed with
// a nil dereference in its compiler); compat renames such functions
// (pkgNameFuncs).
var StdGenericTypes = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, srcs := range Sources() {
		for _, src := range srcs {
			f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
			if err != nil {
				panic("prelude: " + err.Error()) // embedded, and tested
			}
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok {
					for _, sp := range gd.Specs {
						if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams != nil {
							out[ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	return out
})
