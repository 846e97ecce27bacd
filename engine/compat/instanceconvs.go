package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// instanceConvs: a conversion to an instance of a generic type of the
// engine's source packages, iter.Seq[int](f), or of a cell, Pair[int](p)
// (in a function: "type not found: Pair[int]"). yaegi v0.16.1 looks such an
// instance up by name in the cell's scope where it compiles the
// conversion (interp/cfg.go:968, indexExpr of a genericT), and the
// instance lives in the package's scope, where it was made: "type not
// found: Seq[int]"; at top level, where the statement is typed first,
// the conversion was taken for a call ("cannot use type func(func(int)
// bool) as type func(int) bool"). A parameter of that type is typed
// where it is declared, which works, so the value is passed through a
// function literal:
//
//	func(_grundyConv1 iter.Seq[int]) iter.Seq[int] { return _grundyConv1 }(f)
//
// A value that is not assignable to the instance (of another named type
// on the same underlying type) is converted to the underlying type first.
var instanceConvs = Pass{
	Name:     "instanceconvs",
	Run:      runInstanceConvs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"iter_seq_conversion"},
}

func runInstanceConvs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !c.Types.IsType(call.Fun) || !c.genericInstance(call.Fun) {
			return true
		}
		t := c.Types.TypeOf(call.Fun)
		if t == nil {
			return true
		}
		pos := call.Pos()
		arg := call.Args[0]
		if at := c.Types.TypeOf(arg); at == nil || hasTypeParam(t) && !types.AssignableTo(at, t) {
			// (in a generic function, only a value assignable to the
			// instance: orderedSlice[E](s) of an s []E was a nil
			// dereference in yaegi's compiler)
			return true
		} else if _, unnamed := types.Unalias(at).(*types.Struct); !types.AssignableTo(at, t) || unnamed && typeInstanceTemplate(t) != "" {
			// (an unnamed struct type lacks the tag of the instance's
			// reflect type: converted to one that has it)
			if !types.IdenticalIgnoreTags(at.Underlying(), t.Underlying()) {
				return true
			}
			ux, ok := c.TypeExpr(t.Underlying(), pos)
			if !ok {
				return true
			}
			if st, isStruct := ux.(*ast.StructType); isStruct {
				// (with the tag structNames gives the generic type's
				// first field, which the instance's reflect type has)
				name := c.instanceTag(t)
				if name == "" && typeInstanceTemplate(t) != "" {
					n := types.Unalias(t).(*types.Named).Origin().Obj().Name()
					c.Fail(call.Pos(), "%s in generic code: earlier cells' instances of %s are named apart in this interpreter (so that a %s[Nim] is told from a %s[int] in an interface), and a conversion to one from another struct type in a generic function cannot reach them; build the value with a composite literal (%s{...} with each field) instead",
						ExprString(call), n, n, n, ExprString(call.Fun))
					return false
				}
				if name != "" && st.Fields != nil && len(st.Fields.List) > 0 {
					nameField(st, name)
				}
			}
			arg = &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: ux, Rparen: pos}, Lparen: pos, Args: []ast.Expr{arg}, Rparen: pos}
		}
		// The call is rewritten in place, keeping the type the oracle
		// gave it for the passes after this one (rangeFunc).
		if through, ok := c.throughParam(t, arg, pos); ok {
			call.Fun, call.Args = through.Fun, through.Args
		}
		return true
	})
}

// instanceTag is the name in the tag of t's reflect type, an instance of
// a cell's generic struct type: the one the engine wrote there
// (main.Pair[main.Nim,string]) or structNames' (main.Pair[0,1]), which
// the engine then keeps (Pinned: for an instance with type parameters,
// every instance of the generic type); "" for another type.
func (c *Cell) instanceTag(t types.Type) string {
	template := typeInstanceTemplate(t)
	if template == "" {
		return template
	}
	name, ok := c.Types.TypeString(t)
	if HasTypeParam(t) {
		// (in generic code, for every instance: the engine leaves all
		// of the generic type's as structNames wrote them)
		name, ok = PinnedGeneric+types.Unalias(t).(*types.Named).Origin().Obj().Name(), true
		if c.Session != nil && c.Session.InstanceTag(name) != "" {
			return "" // (refused by the caller)
		}
	}
	if !ok {
		return template
	}
	if c.Session != nil {
		if tag := c.Session.InstanceTag(name); tag != "" {
			return tag
		}
	}
	if c.Pinned == nil {
		c.Pinned = map[string]bool{}
	}
	c.Pinned[name] = true
	return template
}

// PinnedGeneric begins the names in Cell.Pinned of generic types all of
// whose instances the engine leaves as structNames wrote them.
const PinnedGeneric = "generic "

// genericInstance reports whether e is an instance of a generic type of
// the engine's source packages (iter.Seq[int]) or of the session
// (Pair[string]).
func (c *Cell) genericInstance(e ast.Expr) bool {
	var x ast.Expr
	switch f := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		x = f.X
	case *ast.IndexListExpr:
		x = f.X
	default:
		return false
	}
	switch x := x.(type) {
	case *ast.SelectorExpr:
		tn, ok := c.Types.ObjectOf(x.Sel).(*types.TypeName)
		return ok && tn.Pkg() != nil && stdGeneric[tn.Pkg().Path()]
	case *ast.Ident:
		tn, ok := c.Types.ObjectOf(x).(*types.TypeName)
		return ok && typecheck.IsCellType(tn.Type())
	}
	return false
}
