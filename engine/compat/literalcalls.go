package compat

import (
	"go/ast"
	"go/types"
)

// literalCalls: a call of a cell's generic function written as an element
// of a composite literal in a method of a generic type (return
// List[T]{Filter(l.items, keep)}) is converted to its own type:
//
//	List[T]{Filter(l.items, keep)}  =>  List[T]{([]T)(Filter(l.items, keep))}
//
// yaegi v0.16.1 asks an element call of a literal for its function's type
// (interp/cfg.go:413), which an instance with a type argument that is not
// predeclared (List[Move]) cannot give (see padTypeParam and
// genericMethods, which refused the method: "uses a type parameter as a
// value"); a conversion's type is its own, and the call inside it is an
// ordinary generic call. Converting a value to its own type changes
// nothing, and the elements are evaluated in their order. Not a call
// whose type is a type parameter (a conversion T(x) is one yaegi cannot
// compile either: see paramConv), nor one of several results.
var literalCalls = Pass{
	Name:     "literalcalls",
	Run:      runLiteralCalls,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"generics_method_literal_call"},
}

func runLiteralCalls(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || fd.Body == nil {
			continue
		}
		if len(receiverTypeParams(fd.Recv.List[0].Type)) == 0 {
			continue // not a generic type's
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			for i := range lit.Elts {
				slot := &lit.Elts[i]
				if kv, ok := (*slot).(*ast.KeyValueExpr); ok {
					slot = &kv.Value
				}
				c.convertLiteralCall(slot)
			}
			return true
		})
	}
}

// convertLiteralCall writes *slot, a call of a cell's generic function,
// as a conversion to its type.
func (c *Cell) convertLiteralCall(slot *ast.Expr) {
	if _, generic := c.genericCallee(*slot); !generic {
		return
	}
	t := c.Types.TypeOf(*slot)
	if t == nil || isTypeParam(t) {
		return
	}
	if _, tuple := t.(*types.Tuple); tuple {
		return
	}
	pos := (*slot).Pos()
	te, ok := c.TypeExpr(t, pos)
	if !ok {
		return
	}
	conv := &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: te, Rparen: pos}, Lparen: pos, Args: []ast.Expr{*slot}, Rparen: (*slot).End()}
	c.Types.Types[conv] = types.TypeAndValue{Type: t} // for the passes after
	*slot = conv
}
