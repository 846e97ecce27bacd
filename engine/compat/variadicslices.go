package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// variadicSlices: a slice passed as one element of a variadic interface
// parameter, f(s) or f(1, s, 2) with s a []any and f(args ...any), or
// appended as one element, append(xs, s) with xs a []any. yaegi v0.16.1
// takes such an argument for the whole variadic slice: a call of an
// interpreted function sets the parameter to any argument whose type is
// the parameter's (interp/run.go:1369, "vararg.Set(v(f))"), so f(s) saw
// s's elements, f(1, s, 2) lost the 1 and f([]any{}) no argument; and
// append with one value of the slice's type (or of an array of its
// element type) appends its elements (interp/run.go:3175, appendSlice).
// Go passes the slice as one value. The variadic arguments go in a slice
// literal of the parameter's type, passed with an ellipsis:
//
//	f(1, s, 2)       =>  f([]any{1, s, 2}...)
//	append(xs, s)    =>  append(xs, []any{s}...)
//
// And f(nil...), which yaegi cannot compile, is f(): both pass a nil
// slice.
//
// A function held in a struct's field and called with more than one
// variadic argument, g.Logf("%d %d", a, b), opts.score(1, 2), has its
// variadic arguments passed so too, whatever their type: yaegi calls such
// a function through reflect and looks a second variadic argument up
// among the function's parameters (interp/run.go:1488, wt.arg[i]), which
// failed to compile ("index out of range [1] with length 1").
var variadicSlices = Pass{
	Name:     "variadicslices",
	Run:      runVariadicSlices,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"variadic_any_slice_argument", "variadic_slice_values_copied", "variadic_field_funcs"},
}

func runVariadicSlices(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		if call.Ellipsis.IsValid() {
			// f(nil...) passes a nil slice, as f() does; yaegi
			// cannot compile it (it types nil as no slice).
			if last := len(call.Args) - 1; last >= 0 && isUntypedNil(c.Types.TypeOf(call.Args[last])) {
				call.Args, call.Ellipsis = call.Args[:last], token.NoPos
			} else if last >= 0 {
				c.spreadLibrarySlice(call, last)
			}
			return true
		}
		var slice *types.Slice
		first := 0
		if c.isBuiltin(call.Fun) {
			if id := call.Fun.(*ast.Ident); id.Name != "append" || len(call.Args) != 2 {
				return true
			}
			t := c.Types.TypeOf(call.Args[0])
			if t == nil {
				return true
			}
			if slice, ok = t.Underlying().(*types.Slice); !ok {
				return true
			}
			first = 1
		} else {
			if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != "main" {
				return true // a native function takes its arguments as Go does
			}
			t := c.Types.TypeOf(call.Fun)
			if t == nil {
				return true
			}
			sig, isSig := t.Underlying().(*types.Signature)
			if !isSig || !sig.Variadic() {
				return true
			}
			first = sig.Params().Len() - 1
			if slice, ok = sig.Params().At(first).Type().(*types.Slice); !ok {
				return true
			}
		}
		fieldCall := len(call.Args) > first+1 && c.isFieldSelector(call.Fun)
		if !fieldCall && (!types.IsInterface(slice.Elem()) || len(call.Args) <= first || !c.anyListOf(call.Args[first:], slice.Elem())) {
			return true
		}
		c.packVariadic(call, first, slice)
		if lit, ok := call.Args[first].(*ast.CompositeLit); ok && call.Ellipsis.IsValid() {
			// Its elements are converted to the interface as the
			// arguments were: with the literal's type, ifaceCopies
			// copies them (append(out, Sum{x}) in a loop, Sum a
			// []Game, appended the last Sum each time).
			c.Types.Types[lit] = types.TypeAndValue{Type: slice}
		}
		return true
	})
}

// anyListOf reports whether one of args is a slice or an array of elem,
// which yaegi takes for the variadic arguments themselves.
func (c *Cell) anyListOf(args []ast.Expr, elem types.Type) bool {
	for _, a := range args {
		t := c.Types.TypeOf(a)
		if t == nil {
			continue
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			if types.Identical(u.Elem(), elem) {
				return true
			}
		case *types.Array:
			if types.Identical(u.Elem(), elem) {
				return true
			}
		}
	}
	return false
}

func isUntypedNil(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.UntypedNil
}

// isFieldSelector reports whether e selects a struct's field (a function
// held in it), or the function selfFuncs put in a struct.
func (c *Cell) isFieldSelector(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s, ok := c.Types.Selections[sel]; ok {
		return s.Kind() == types.FieldVal
	}
	return sel.Sel.Name == selfFuncField
}

// spreadLibrarySlice converts the spread argument i of call, a library's
// named slice type (games.Pos, sort.IntSlice: f(p...)), to the variadic
// parameter's slice type when f is a function the cells declare: yaegi
// v0.16.1 took such a value for one element there, and panicked in
// reflect.Set ("value of type games.Pos is not assignable to type int").
func (c *Cell) spreadLibrarySlice(call *ast.CallExpr, i int) {
	if fn := c.callee(call); fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
		return // (a value or a literal takes it; a library's function too)
	}
	n, ok := types.Unalias(c.Types.TypeOf(call.Args[i])).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == "main" {
		return
	}
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok || !sig.Variadic() {
		return
	}
	param := sig.Params().At(sig.Params().Len() - 1).Type()
	te, ok := c.TypeExpr(param, call.Args[i].Pos())
	if !ok {
		return
	}
	conv := &ast.CallExpr{Fun: &ast.ParenExpr{X: te}, Lparen: call.Args[i].Pos(), Args: []ast.Expr{call.Args[i]}, Rparen: call.Args[i].End()}
	c.Types.Types[conv] = types.TypeAndValue{Type: param}
	call.Args[i] = conv
}
