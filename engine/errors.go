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
func unsupportedError(msg string, n ast.Node, it *Interp) *EvalError {
	pos := ""
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		pos = strings.TrimSuffix(msg, m[2])
		msg = m[2]
	}
	msg = strings.TrimPrefix(msg, "CFG post-order panic: ")
	if name, at := undefinedPackage(n, it); name != "" {
		u := it.fset.Position(at).String() + ": undefined: " + name + prelude.PackageHint(name)
		return &EvalError{Name: "CompileError", Value: u, Traceback: []string{u}}
	}
	hint := pos + "the interpreter cannot compile this; rewrite it more plainly (split the statement, or move it into a function)"
	return &EvalError{Name: "CompileError", Value: hint, Traceback: []string{hint, "(interpreter: " + msg + ")"}}
}
