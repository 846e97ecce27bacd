package compat

import (
	"go/ast"
	"go/types"
)

// cellIfaceArgs: a call's result of a library type (games.Game,
// *strings.Reader) handed straight to a parameter of an interface type the
// cells declare, or returned as one:
//
//	type Lener interface{ Len() int }
//	k(strings.NewReader("abc"))            =>  k(Lener(strings.NewReader("abc")))
//	func() Lener { return games.CN(3, 2) }  =>  ... return Lener(games.CN(3, 2))
//
// yaegi v0.16.1 puts such a value in its valueInterface without the node
// that describes it (interp/run.go: callBin's results, stored through the
// parameter's or result's type), and comparing it with nil
// (interp/run.go:4052 reads vi.node.kind) panicked with a nil
// dereference, as did a type switch on it; assigned, converted, or passed
// from a variable it is whole. The conversion is written out.
var cellIfaceArgs = Pass{
	Name:     "cellifaceargs",
	Run:      runCellIfaceArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"library_value_passed_as_cell_interface"},
}

func runCellIfaceArgs(c *Cell) {
	var walk func(n ast.Node, sig *types.Signature)
	walk = func(n ast.Node, sig *types.Signature) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				var fsig *types.Signature
				if obj := c.Types.ObjectOf(n.Name); obj != nil {
					fsig, _ = obj.Type().(*types.Signature)
				}
				walk(n.Body, fsig)
				return false
			case *ast.FuncLit:
				fsig, _ := c.Types.TypeOf(n).(*types.Signature)
				walk(n.Body, fsig)
				return false
			case *ast.ReturnStmt:
				if sig != nil && sig.Results().Len() == len(n.Results) {
					for i := range n.Results {
						c.convertToCellIface(&n.Results[i], sig.Results().At(i).Type())
					}
				}
			case *ast.CallExpr:
				ft := c.Types.TypeOf(n.Fun)
				if ft == nil || c.Types.Types[n.Fun].IsType() {
					return true
				}
				csig, ok := ft.Underlying().(*types.Signature)
				if !ok {
					return true
				}
				params := csig.Params()
				for i := range n.Args {
					var pt types.Type
					switch {
					case csig.Variadic() && i >= params.Len()-1:
						if n.Ellipsis.IsValid() {
							continue
						}
						pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
					case i < params.Len():
						pt = params.At(i).Type()
					default:
						continue
					}
					c.convertToCellIface(&n.Args[i], pt)
				}
			}
			return true
		})
	}
	for _, root := range c.Roots() {
		walk(root, nil)
	}
}

// convertToCellIface writes *e, a call whose result is of a library type,
// converted to t when t is an interface type the
// cells declare.
func (c *Cell) convertToCellIface(e *ast.Expr, t types.Type) {
	call, ok := ast.Unparen(*e).(*ast.CallExpr)
	if !ok || t == nil || !interpretedIface(t) {
		return
	}
	if tv, ok := c.Types.Types[call.Fun]; !ok || tv.IsType() {
		return // a conversion
	}
	et := c.Types.TypeOf(call)
	if et == nil || interpretedIface(et) || mentionsCellType(et) {
		return
	}
	if _, tuple := et.(*types.Tuple); tuple {
		return
	}
	tx, ok := c.TypeExpr(t, call.Pos())
	if !ok {
		return
	}
	*e = &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: call.Pos(), X: tx, Rparen: call.Pos()}, Lparen: call.Pos(), Args: []ast.Expr{*e}, Rparen: call.End()}
}
