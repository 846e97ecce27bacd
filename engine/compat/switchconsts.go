package compat

import (
	"go/ast"
	"go/types"
)

// switchConsts: a constant case of an expression switch on a number
// (switch p { case 0: ... case 0.5: }, p a float64; switch lv { case 0.7: },
// lv a type Level float32), and a nil case of one on a pointer, a channel,
// a function, a map or a slice (switch p { case nil: }), is converted to
// the tag's type, as Go compares it. yaegi v0.16.1 gives an untyped
// constant its default type and, where the tag's type differs, converts
// the tag to the case's type before it compares (interp/run.go, _case:
// v0.Convert(v1.Type()), then ==), so a float64 tag 0.1 was truncated to
// the int 0 and took case 0, and a float32 tag 0.7 widened to float64
// missed case 0.7; and it compares a nil pointer with the untyped nil as
// two interfaces, which differ, so case nil never matched (the default
// dereferenced the nil pointer); silently. A conversion of a constant
// costs nothing at run time: yaegi folds it.
//
//	switch p { case 0, 0.5: }  =>  switch p { case float64(0), float64(0.5): }
//	switch n { case nil: }     =>  switch n { case (*Node)(nil): }
//	switch v { case 0: }       =>  switch v { case T(0): }   (v of a type parameter T of numbers)
var switchConsts = Pass{
	Name:     "switchconsts",
	Run:      runSwitchConsts,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_float_constant_cases", "switch_nil_pointer_case"},
}

func runSwitchConsts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sw, ok := cur.Node().(*ast.SwitchStmt)
		if !ok || sw.Tag == nil {
			return true
		}
		tt := c.Types.TypeOf(sw.Tag)
		if tt == nil {
			return true
		}
		numeric, nilable := false, false
		if tp, param := types.Unalias(tt).(*types.TypeParam); param {
			// In a generic function, T(0) (numeric types only: the
			// instance's conversion is the one above).
			numeric = allNumeric(tp)
		}
		switch u := tt.Underlying().(type) {
		case *types.Basic:
			numeric = u.Info()&types.IsNumeric != 0
		case *types.Pointer, *types.Chan, *types.Signature, *types.Map, *types.Slice:
			nilable = true
		}
		if !numeric && !nilable {
			return true
		}
		for _, cl := range sw.Body.List {
			cc := cl.(*ast.CaseClause)
			for i, e := range cc.List {
				tv, ok := c.Types.Types[e]
				if ok && (numeric && tv.Value != nil || nilable && tv.IsNil()) {
					cc.List[i] = c.convertTo(tt, e)
				}
			}
		}
		return true
	})
}

// allNumeric reports whether every type in tp's type set is numeric.
func allNumeric(tp *types.TypeParam) bool {
	terms := termTypes(tp)
	for _, u := range terms {
		if b, ok := u.(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
			return false
		}
	}
	return len(terms) > 0
}
