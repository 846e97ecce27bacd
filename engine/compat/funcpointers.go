package compat

import (
	"go/ast"
	"go/types"
	"grundy/engine/prelude"
)

// funcPointers: reflect.ValueOf(f).Pointer() (or UnsafePointer) of a
// function the cells may have written. yaegi v0.16.1 hands native code
// each interpreted function as a reflect.MakeFunc wrapper
// (interp/run.go, genFunctionWrapper), whose code pointer is reflect's
// makeFuncStub for every one of them: comparing two functions' pointers
// was always true, and runtime.FuncForPC(...).Name() said
// "reflect.makeFuncStub" where Go names the function (main.square).
// Refused before running, unless f names a function of a native package
// (strings.ToUpper), whose pointer is its own; where f is an interface
// value (fn any), which may hold a pointer, a map or a function, Pointer
// is grundyrt.ValuePointer, which panics saying so for an interpreted
// function (the name printed was "", silently).
var funcPointers = Pass{
	Name:     "funcpointers",
	Run:      runFuncPointers,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"func_pointers_refused", "func_pointer_through_interface_refused"},
}

func runFuncPointers(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Pointer" && sel.Sel.Name != "UnsafePointer" {
			return true
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || len(inner.Args) != 1 {
			return true
		}
		fn := c.callee(inner)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Name() != "ValueOf" {
			return true
		}
		f := inner.Args[0]
		if t := c.Types.TypeOf(f); t != nil && types.IsInterface(t) && sel.Sel.Name == "Pointer" {
			// It may hold a function: checked when it runs.
			cur.Replace(&ast.CallExpr{Fun: rtSelector(prelude.RTValuePointer, call.Pos()), Lparen: call.Pos(), Args: []ast.Expr{sel.X}, Rparen: call.End()})
			return true
		}
		if _, isFunc := typeUnder(c.Types.TypeOf(f)).(*types.Signature); !isFunc || c.nativeFunc(f) {
			return true
		}
		c.Fail(call.Pos(), "%s of a function: the interpreter's functions all share one code pointer (reflect.makeFuncStub), so it cannot tell them apart or name them; keep a name beside each function (a map[string]func... or a struct with a name field) and compare or print that",
			ExprString(call))
		return false
	})
}

// nativeFunc reports whether e names a function of a native package
// (strings.ToUpper), not a value that may hold an interpreted one.
func (c *Cell) nativeFunc(e ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	fn, ok := c.Types.ObjectOf(id).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() != c.Types.Pkg.Path() && fn.Type().(*types.Signature).Recv() == nil
}
