package compat

import (
	"go/ast"
	"strings"
)

// labelNames: a label named like a variable, parameter, constant,
// function or type in scope where it stands (loop := 3 beside loop:,
// a parameter next beside next:). Go keeps labels apart from the other
// names; yaegi v0.16.1 declares them in the scope its variables are in
// (interp/cfg.go:221, "labels must be stored outside of symbols to avoid
// collisions"), so such a cell was refused ("label loop not defined",
// "the interpreter cannot compile this") or, a label among a cell's
// statements with a variable of its name declared after it, panicked
// with "index out of range [-1]". Every label and every break, continue
// and goto naming one is renamed into the engine's names:
//
//	loop: for ... { continue loop }  =>  _grundyLabel_loop: for ... { continue _grundyLabel_loop }
var labelNames = Pass{
	Name:     "labelnames",
	Run:      runLabelNames,
	Kinds:    []ast.Node{(*ast.LabeledStmt)(nil)},
	Snippets: []string{"label_named_like_a_variable"},
}

// labelPrefix begins the name labelNames gives a label.
const labelPrefix = tempPrefix + "Label_"

func runLabelNames(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.LabeledStmt:
				renameLabel(s.Label)
			case *ast.BranchStmt:
				if s.Label != nil {
					renameLabel(s.Label)
				}
			}
			return true
		})
	}
}

// renameLabel gives a label its engine name, once (a function an earlier
// cell declared may be rewritten again).
func renameLabel(id *ast.Ident) {
	if !strings.HasPrefix(id.Name, labelPrefix) {
		id.Name = labelPrefix + id.Name
	}
}

// userLabel is a label's name as the cell writes it, for messages.
func userLabel(id *ast.Ident) string { return strings.TrimPrefix(id.Name, labelPrefix) }
