package compat

import (
	"go/ast"
	"go/types"
)

// nestedSigs: a method (of a cell type, or in a cell's interface) with a
// parameter or result of a generic function type instantiated with a
// generic type: func (t *Table) Rows() iter.Seq[iter.Seq[int]]. yaegi v0.16.1
// cannot build the reflect type of such a signature (interp/type.go,
// refType: reflect.FuncOf of a nil type), and it builds it for the
// type's method set wherever a value of the type goes through an
// interface or an argument's type is checked: every use of Table failed
// to compile ("the interpreter cannot compile this"), or panicked with
// an index out of range; the same signature on a function works. The
// parameter or result is declared with the instance's underlying type
// (which values of the instance are assignable to), and a call's result
// is returned as the instance, so the cell sees it:
//
//	func (t *Table) Rows() iter.Seq[iter.Seq[int]]  =>  func (t *Table) Rows() func(yield func(iter.Seq[int]) bool)
//	t.Rows()  =>  func(_grundyConv1 func(yield func(iter.Seq[int]) bool)) iter.Seq[iter.Seq[int]] { return _grundyConv1 }(t.Rows())
//
// (A method value, t.Rows, has the underlying type's signature: %T
// names it so.)
var nestedSigs = Pass{
	Name:     "nestedsigs",
	Run:      runNestedSigs,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil), (*ast.InterfaceType)(nil), (*ast.CallExpr)(nil)},
	Snippets: []string{"method_seq_of_seqs"},
}

func runNestedSigs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s := c.Types.Selections[sel]
			if s == nil || s.Kind() != types.MethodVal || !cellMethod(s.Obj()) {
				return true
			}
			sig := s.Obj().Type().(*types.Signature)
			if sig.Results().Len() != 1 || !nestedInstance(sig.Results().At(0).Type()) {
				return true
			}
			t := c.Types.TypeOf(n)
			if t == nil {
				return true
			}
			// (Through a function's result: yaegi's own conversion of the
			// call to the instance failed, "type not found".)
			if back, ok := c.returnedAs(t.Underlying(), t, n, n.Pos()); ok {
				cur.Replace(back)
			}
		case *ast.FuncDecl:
			if n.Recv != nil {
				c.plainSig(n.Type)
			}
		case *ast.InterfaceType:
			if n.Methods != nil {
				for _, m := range n.Methods.List {
					if ft, ok := m.Type.(*ast.FuncType); ok && len(m.Names) > 0 {
						c.plainSig(ft)
					}
				}
			}
		}
		return true
	})
}

// plainSig declares each parameter and result of ft whose type is a
// nested instance (see nestedInstance) with its underlying type.
func (c *Cell) plainSig(ft *ast.FuncType) {
	for _, l := range []*ast.FieldList{ft.Params, ft.Results} {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			t := c.Types.TypeOf(f.Type)
			if t == nil || !nestedInstance(t) {
				continue
			}
			if tx, ok := c.TypeExpr(t.Underlying(), f.Type.Pos()); ok {
				c.Types.Types[tx] = types.TypeAndValue{Type: t.Underlying()}
				f.Type = tx
			}
		}
	}
}

// cellMethod reports whether m is a method the cells declare (of a type,
// or of an interface type).
func cellMethod(m types.Object) bool {
	return m.Pkg() != nil && m.Pkg().Path() == "main"
}

// nestedInstance reports whether t is an instance of a generic function
// type (iter.Seq, iter.Seq2) with an instance of a generic type among its
// type arguments.
func nestedInstance(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 {
		return false
	}
	if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
		// (A struct's underlying type as the oracle writes it is not the
		// interpreter's type of the instance: reflect.Set failed.)
		return false
	}
	for _, a := range typeList(n.TypeArgs()) {
		if an, ok := types.Unalias(a).(*types.Named); ok && an.TypeArgs().Len() > 0 {
			return true
		}
	}
	return false
}
