package compat

import (
	"go/ast"
	"go/types"
)

// aliasRecvs: a method declared through an alias of a pointer type
//
//	type PP = *Point
//	func (p PP) Neg() { ... }  =>  func (p *Point) Neg() { ... }
//
// has the pointer written in its receiver. Go resolves the alias to
// *Point; yaegi v0.16.1 takes the receiver's name for the base type
// itself and refused the cell ("cannot define new methods on non-local
// type main.Point"). An alias of the type itself (type P = Point) is
// compiled as Go does and is left alone.
var aliasRecvs = Pass{
	Name:     "aliasrecvs",
	Run:      runAliasRecvs,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"method_on_pointer_alias"},
}

func runAliasRecvs(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		f := fd.Recv.List[0]
		id, ok := f.Type.(*ast.Ident)
		if !ok {
			continue
		}
		tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
		if !ok || !tn.IsAlias() {
			continue
		}
		if _, ptr := types.Unalias(tn.Type()).(*types.Pointer); !ptr {
			continue
		}
		if x, ok := c.TypeExpr(types.Unalias(tn.Type()), id.Pos()); ok {
			f.Type = x
		}
	}
}
