package engine

import (
	"go/ast"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
)

func exprString(n ast.Node) string { return compat.ExprString(n) }

// unsupportedError turns a yaegi internal panic during compilation into a
// one-line error that says what to write instead.
// cannotCompile is what a cell gets where the interpreter fails on a
// construct the engine does not know (README's list of what the engine
// cannot run says so).
const cannotCompile = "the interpreter cannot compile this; rewrite it more plainly (split the statement, or move it into a function)"

func unsupportedError(msg string, n ast.Node, it *Interp) *EvalError {
	pos := ""
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		pos = strings.TrimSuffix(msg, m[3])
		msg = m[3]
	}
	msg = strings.TrimPrefix(msg, "CFG post-order panic: ")
	if name, at := undefinedPackage(n, it); name != "" {
		u := it.fset.Position(at).String() + ": undefined: " + name + prelude.PackageHint(name)
		return &EvalError{Name: "CompileError", Value: u, Traceback: []string{u}}
	}
	if e := it.typeError(nil); e != nil {
		// The cell is not Go: say so, not that the interpreter failed.
		return e
	}
	hint := pos + cannotCompile
	return &EvalError{Name: "CompileError", Value: hint, Traceback: []string{hint, "(interpreter: " + msg + ")"}}
}
