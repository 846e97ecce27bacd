package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// funcIfaceArgs: a value of a cell's function type with methods (type
// readerFunc func([]byte) (int, error), with Read) passed to a native
// function or method for a parameter of an interface type with methods,
// io.ReadAll(readerFunc(f)). yaegi v0.16.1 passes an argument of a
// function type to a native call as a plain function, whatever the
// parameter's type (interp/run.go:1522, callBin: isFuncSrc comes before
// the interface wrapper), and the value returned by an interpreted call
// as it is (interp/run.go:1479), so reflect panicked in Call ("Call using
// func([]uint8) (int, error) as type io.Reader"). A return of a
// parameter of the function type as the interface wraps it with its
// methods (an explicit conversion alone does not, nor a parameter of the
// interface type given the result of a call):
//
//	io.ReadAll(func(_grundyConv1 readerFunc) io.Reader { return _grundyConv1 }(once("a")))
//
// Variadic arguments are nativeVariadics' (a slice literal's elements are
// wrapped).
var funcIfaceArgs = Pass{
	Name:     "funcifaceargs",
	Run:      runFuncIfaceArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"native_call_func_type_value"},
}

func runFuncIfaceArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || c.interpreted(call) {
			return true
		}
		fn := c.callee(call)
		if stdGeneric[fn.Pkg().Path()] {
			return true
		}
		sig, ok := fn.Type().(*types.Signature)
		if !ok {
			return true
		}
		fixed := sig.Params().Len()
		if sig.Variadic() {
			fixed--
		}
		for i, a := range call.Args {
			if i >= fixed {
				break
			}
			pt := sig.Params().At(i).Type()
			if !types.IsInterface(pt) || pt.Underlying().(*types.Interface).NumMethods() == 0 || !cellFuncWithMethods(c.Types.TypeOf(a)) {
				continue
			}
			if through, ok := c.returnedAs(c.Types.TypeOf(a), pt, a, a.Pos()); ok {
				call.Args[i] = through
			}
		}
		return true
	})
}

// cellFuncWithMethods reports whether t is a type a cell declares on a
// function type, with methods.
func cellFuncWithMethods(t types.Type) bool {
	if t == nil || !typecheck.IsCellType(t) {
		return false
	}
	n := types.Unalias(t).(*types.Named)
	_, fn := n.Underlying().(*types.Signature)
	return fn && n.NumMethods() > 0
}
