package compat

import (
	"go/ast"
	"go/types"
)

// literalCalls: a call of a generic function (a cell's, or slices.Clone)
// written as an element of a composite literal in a method of a generic
// type (return List[T]{Filter(l.items, keep)}), or one of slices' in a
// generic function (W[T]{xs: slices.Clone(xs)}: a nil dereference for
// W[Nimber]), is converted to its own type:
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
		if !ok || fd.Body == nil {
			continue
		}
		if len(FuncTypeParams(fd)) == 0 {
			continue // not generic, nor a generic type's
		}
		// A generic function calling a cell's generic function there is
		// called as a copy (copyNeeds); other generic calls (slices.Clone)
		// are converted in it too.
		method := fd.Recv != nil
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
				c.convertLiteralCall(slot, method)
			}
			return true
		})
	}
}

// convertLiteralCall writes *slot, a call of a cell's generic function
// (where cells) or of another generic function (slices.Clone, whose
// instance the engine's slices package makes as the cell's are made), as
// a conversion to its type.
func (c *Cell) convertLiteralCall(slot *ast.Expr, cells bool) {
	_, generic := c.genericCallee(*slot)
	if generic && !cells || !generic && !c.instanceCall(*slot) {
		return
	}
	t := c.Types.TypeOf(*slot)
	if t == nil || isTypeParam(t) {
		return
	}
	if !generic && namesInstance(t) {
		// (iter.Seq[T])(slices.Values(xs)) is one yaegi cannot compile;
		// a []T it can.
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

// instanceCall reports whether e calls an instance of a generic function
// (slices.Clone(xs), F[T](x)).
func (c *Cell) instanceCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id := calleeIdent(call)
	if id == nil {
		return false
	}
	_, inst := c.Types.Instances[id]
	return inst
}

// namesInstance reports whether t is or has in it an instance of a
// generic type (iter.Seq[int], []Pair[K, V]).
func namesInstance(t types.Type) bool {
	return typeIn(t, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		return ok && n.TypeArgs().Len() > 0
	}) != nil
}
