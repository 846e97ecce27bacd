package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// printBuiltins: the builtins print and println. yaegi v0.16.1 writes
// them to standard output through fmt (interp/run.go, _println:
// fmt.Fprint(n.interp.stdout, ...)), where Go's runtime writes to standard
// error: a cell debugging with println printed into its results, and
// fmt's formats (a float32 with float64's digits). The call goes to the
// runtime's copy of Go's:
//
//	println("x", 1.5)   =>   grundyrt.Print(true, "x", 1.5)
var printBuiltins = Pass{
	Name:     "printbuiltins",
	Run:      runPrintBuiltins,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"println_to_stderr"},
}

func runPrintBuiltins(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		b, ok := c.Types.Uses[id].(*types.Builtin)
		if !ok || b.Name() != "print" && b.Name() != "println" {
			return true
		}
		ln := ident("false", id.Pos())
		if b.Name() == "println" {
			ln = ident("true", id.Pos())
		}
		call.Fun = rtSelector(prelude.RTPrint, id.Pos())
		if len(call.Args) == 1 {
			if lit := c.printTuple(call, ln); lit != nil {
				call.Fun = lit // println(two())
				return true
			}
		}
		call.Args = append([]ast.Expr{ln}, call.Args...)
		return true
	})
}

// printTuple is, for call a print of one call's results (println(two()),
// its function already the runtime's), a function literal taking them
// as its arguments and printing them, which call is to call instead: the
// runtime's print cannot take them with ln before them. nil if the
// argument is one value.
func (c *Cell) printTuple(call *ast.CallExpr, ln ast.Expr) *ast.FuncLit {
	tuple, ok := c.Types.TypeOf(call.Args[0]).(*types.Tuple)
	if !ok {
		return nil
	}
	pos := call.Pos()
	var params []*ast.Field
	args := []ast.Expr{ln}
	for i := range tuple.Len() {
		tx, ok := c.TypeExpr(tuple.At(i).Type(), pos)
		if !ok {
			return nil
		}
		p := c.Temp("P")
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(p, pos)}, Type: tx})
		args = append(args, ident(p, pos))
	}
	lit := funcLit(pos, call.End(), nil, &ast.ExprStmt{X: &ast.CallExpr{Fun: call.Fun, Lparen: pos, Args: args, Rparen: pos}})
	lit.Type.Params.List = params
	return lit
}
