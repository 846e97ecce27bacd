package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// instanceStores: a value of an unnamed struct type assigned to an instance
// of a cell's generic struct type, or the other way round (var b Box[int]
// = struct{ V int }{3}; an argument, a return, an element, append's). Go
// allows it, the two having one underlying type; structNames tags the
// instance's first field with the instance's name, and yaegi v0.16.1
// compares tags in its assignability check, so the cell was refused
// ("cannot use type struct { V int } as type main.Box[int]"). The
// conversion, which ignores tags, is written out (instanceConvs then
// passes it through a function literal where it needs one):
//
//	var b Box[int] = a  =>  var b Box[int] = Box[int](a)
var instanceStores = Pass{
	Name:     "instancestores",
	Run:      runInstanceStores,
	Kinds:    assignedKinds,
	Snippets: []string{"unnamed_struct_assigned_to_generic_instance"},
}

func runInstanceStores(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		for _, v := range c.assignedValues(cur, nil) {
			from := c.Types.TypeOf(v.value)
			if from == nil || !isStruct(v.target) || !isStruct(from) {
				continue
			}
			if cellStructInstance(v.target) && structLiteralType(from) || structLiteralType(v.target) && cellStructInstance(from) {
				if x := c.convertTo(v.target, v.value); x != v.value {
					c.noteInstanceConv(x.(*ast.CallExpr).Fun, v.target)
					v.set(x)
				}
			}
		}
		return true
	})
}

// noteInstanceConv types fun, the instance convertTo wrote (Box[int]),
// for instanceConvs, which looks its generic type up by name.
func (c *Cell) noteInstanceConv(fun ast.Expr, t types.Type) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return
	}
	c.Types.RecordTypeExpr(fun, t)
	if id, ok := unindex(fun).(*ast.Ident); ok {
		c.Types.Uses[id] = n.Origin().Obj()
	}
}

// cellStructInstance reports whether t is an instance of a generic struct
// type the cells declare (Box[int]; Box[T] in generic code).
func cellStructInstance(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && typecheck.IsCellType(n) && n.TypeArgs().Len() > 0 && isStruct(n)
}

// structLiteralType reports whether t is a struct type literal.
func structLiteralType(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Struct)
	return ok
}
