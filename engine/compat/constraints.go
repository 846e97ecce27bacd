package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// constraintTerms: the type terms of constraints (~int | ~float64, the
// int of interface{ int; String() string }) are left out of what the
// interpreter compiles. yaegi v0.16.1 checks a type argument against them
// by comparing the id of the argument's underlying type with each term's
// (interp/generic.go:303, checkConstraint), and a type of a native
// package (time.Duration), or a cell type declared on one, is its own
// underlying type there: the check fails, and it reports the failure on a
// node it does not have, a nil dereference (interp/generic.go:318). The
// oracle has checked every instantiation against the real constraint
// before the cell runs, and yaegi compiles each instance with its type
// arguments written in, so the terms serve it for nothing else; methods
// and embedded interfaces stay. The engine's own packages are compiled the
// same way (prelude's looseConstraints).
//
// comparable embedded beside other elements goes too, for the same
// reason and one more: yaegi makes it an embedded field of the interface
// (interp/type.go:930) and finds the methods of a native interface
// embedded after it by a field index off by one, so
// interface{ comparable; fmt.Stringer } panicked "index out of range" at
// the first x.String().
var constraintTerms = Pass{
	Name:     "constraintterms",
	Run:      runConstraintTerms,
	Kinds:    []ast.Node{(*ast.InterfaceType)(nil), (*ast.FuncDecl)(nil), (*ast.TypeSpec)(nil)},
	Snippets: []string{"generics_constraint_native_named_types", "generics_constraint_comparable_stringer"},
}

func runConstraintTerms(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.InterfaceType:
			if n.Methods == nil {
				return true
			}
			var keep []*ast.Field
			for _, f := range n.Methods.List {
				if len(f.Names) > 0 || !c.isTypeTerm(f.Type) && !(len(n.Methods.List) > 1 && c.isComparable(f.Type)) {
					keep = append(keep, f)
				}
			}
			n.Methods.List = keep
		case *ast.FuncDecl:
			c.looseTypeParams(n.Type.TypeParams)
		case *ast.TypeSpec:
			c.looseTypeParams(n.TypeParams)
		}
		return true
	})
}

// looseTypeParams writes each constraint in a type parameter list that is
// only type terms ([T ~int | ~float64], [T int]) as interface{}.
func (c *Cell) looseTypeParams(l *ast.FieldList) {
	if l == nil {
		return
	}
	for _, f := range l.List {
		if c.isTypeTerm(f.Type) {
			f.Type = &ast.InterfaceType{Interface: f.Type.Pos(), Methods: &ast.FieldList{Opening: f.Type.Pos(), Closing: f.Type.Pos()}}
		}
	}
}

// isTypeTerm reports whether an element of a constraint is a type term
// (a union, ~T, or a type that is not an interface) or stands for type
// terms only (cmp.Ordered: a package's interface, which a cell cannot
// loosen where it is declared, and yaegi compiles its own), by the
// oracle; an element it has no type for stays.
func (c *Cell) isTypeTerm(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.OR
	case *ast.UnaryExpr:
		return x.Op == token.TILDE
	case *ast.InterfaceType:
		return false
	}
	t := c.Types.TypeOf(e)
	if t == nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return true
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() != "main" && !iface.IsMethodSet() && iface.NumMethods() == 0
}

// isComparable reports whether e names the predeclared comparable.
func (c *Cell) isComparable(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && c.Types.ObjectOf(id) == types.Universe.Lookup("comparable")
}
