package compat

import "go/ast"

// unnamedParams: a function or method whose parameters have no names
// (func (n Num) Eval(Env) float64, the Go idiom for a parameter an
// implementation ignores) gets "_" for each. yaegi v0.16.1 gives a
// parameter a frame slot only for its names (interp/cfg.go:529, the
// input parameters of a funcDecl or funcLit), while a call copies every
// argument in, so each argument landed in the slot of the next variable:
// on a method of a type on a basic type the receiver took the argument
// ("reflect.Set: value of type map[string]float64 is not assignable to
// type float64"), in a function a local of another type did. Names "_"
// get their slots.
//
// A method of a generic type whose receiver has no name (func (Set[T])
// Kind() string) gets "_" for it too: yaegi v0.16.1 reads the receiver's
// type of a generic method as the second child of its field
// (interp/generic.go:87, genAST's rtn := n.child[0].child[1]), which a
// field without a name does not have, and the interpreter failed to
// compile the first call ("index out of range [1] with length 1").
var unnamedParams = Pass{
	Name:     "unnamedparams",
	Run:      runUnnamedParams,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)},
	Snippets: []string{"unnamed_params", "generics_unnamed_receiver"},
}

func runUnnamedParams(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch f := n.(type) {
			case *ast.FuncDecl:
				nameParams(f.Type.Params)
				if f.Recv != nil && len(f.Recv.List) == 1 && len(f.Recv.List[0].Names) == 0 && genericRecv(f.Recv.List[0].Type) {
					f.Recv.List[0].Names = []*ast.Ident{ident("_", f.Recv.List[0].Type.Pos())}
				}
			case *ast.FuncLit:
				nameParams(f.Type.Params)
			}
			return true
		})
	}
}

// nameParams names each parameter of a list without names "_" (a list
// names all its parameters or none).
func nameParams(params *ast.FieldList) {
	if params == nil {
		return
	}
	for _, f := range params.List {
		if len(f.Names) > 0 {
			return
		}
		f.Names = []*ast.Ident{ident("_", f.Type.Pos())}
	}
}

// genericRecv reports whether a receiver's type is an instance of a
// generic type (T[X], *T[X, Y]).
func genericRecv(t ast.Expr) bool {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	switch ast.Unparen(t).(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}
