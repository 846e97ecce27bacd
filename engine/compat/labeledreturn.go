package compat

import "go/ast"

// labeledReturn: a label on a bare return ("done: return", the target of
// a goto). yaegi v0.16.1 recurses without end compiling it (the cell
// fails with a stack overflow); a label on another statement, or on a
// return with values, compiles. The label goes on an empty block before
// the return:
//
//	done:
//		{
//		}
//		return
var labeledReturn = Pass{
	Name:     "labeledreturn",
	Run:      runLabeledReturn,
	Kinds:    []ast.Node{(*ast.LabeledStmt)(nil)},
	Snippets: []string{"goto_label_on_bare_return"},
}

func runLabeledReturn(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ls, ok := cur.Node().(*ast.LabeledStmt)
		if !ok || cur.Index() < 0 {
			return true
		}
		ret, ok := ls.Stmt.(*ast.ReturnStmt)
		if !ok || len(ret.Results) > 0 {
			return true
		}
		ls.Stmt = &ast.BlockStmt{Lbrace: ret.Pos(), Rbrace: ret.Pos()}
		cur.InsertAfter(ret)
		return true
	})
}
