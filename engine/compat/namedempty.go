package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// namedEmpty: an assertion or a type switch on a value whose static type
// is an empty interface the cells name (type Empty interface{}) asserts
// it as an any:
//
//	e.(Namer)  =>  any(e).(Namer)
//
// yaegi v0.16.1 takes such a named interface for one with methods in its
// assertion (interp/run.go, typeAssert: not isEmptyInterface), and said
// false where Go says true (e.(Namer) of a T with Name), or panicked
// (reflect.Set: "interface {} is not assignable to type
// interp.valueInterface"); the conversion to any is free.
//
// Such a type declared on any (type Value any) is declared on interface{}:
// yaegi v0.16.1 took it for neither, and a type switch binding its value
// (switch x := v.(type)) took no case, == of two was always true (in a
// closure or a method), and var a, b Value = 2, 2.0 panicked in reflect.
var namedEmpty = Pass{
	Name:     "namedempty",
	Run:      runNamedEmpty,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil), (*ast.TypeSpec)(nil)},
	Snippets: []string{"named_empty_interface_asserted"},
}

func runNamedEmpty(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && !ts.Assign.IsValid() && isIdent(ts.Type, "any") {
				if obj := c.Types.ObjectOf(ts.Type.(*ast.Ident)); obj != nil && obj.Parent() == types.Universe {
					ts.Type = &ast.InterfaceType{Interface: ts.Type.Pos(), Methods: &ast.FieldList{Opening: ts.Type.Pos(), Closing: ts.Type.End()}}
				}
				return true
			}
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok {
				return true
			}
			nt, ok := types.Unalias(c.Types.TypeOf(ta.X)).(*types.Named)
			if !ok || !typecheck.IsCellType(nt) {
				return true
			}
			if it, ok := nt.Underlying().(*types.Interface); !ok || !it.Empty() {
				return true
			}
			pos := ta.X.Pos()
			conv := &ast.CallExpr{Fun: ident("any", pos), Lparen: pos, Args: []ast.Expr{ta.X}, Rparen: ta.X.End()}
			c.Types.Types[conv] = types.TypeAndValue{Type: types.Universe.Lookup("any").Type()}
			ta.X = conv
			return true
		})
	}
}
