package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// ifaceCompare: x == y and x != y, with x or y of an interface type and
// neither nil, a switch on a value of an interface type, and slices.Index,
// Contains, Equal and Compact on slices of one, compare the values inside
// yaegi's wrappers. yaegi v0.16.1
// holds a cell type's value in an interface as a wrapper with the node
// that made it (valueInterface, interp/value.go), and compares wrappers:
// two equal values of a cell type with methods in a non-empty interface
// were unequal; comparing errors panicked (their wrappers hold a func:
// "comparing uncomparable type interp._error"), and each conversion makes
// a new one.
var ifaceCompare = Pass{
	Name:     "ifacecompare",
	Run:      runIfaceCompare,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil), (*ast.SwitchStmt)(nil), (*ast.CallExpr)(nil)},
	Snippets: []string{"errors_compare_sentinels", "iface_compare_cell_values"},
}

// sliceEquals are the functions of package slices that compare elements
// with ==, each written as a function literal comparing keys instead,
// called with the call's arguments: %[1]s is the runtime, %[2]s the
// element type, %[3]s CompareKey.
var sliceEquals = map[string]string{
	"Index":    "func(s []%[2]s, v %[2]s) int { for i, e := range s { if %[1]s.%[3]s(e) == %[1]s.%[3]s(v) { return i } }; return -1 }",
	"Contains": "func(s []%[2]s, v %[2]s) bool { for _, e := range s { if %[1]s.%[3]s(e) == %[1]s.%[3]s(v) { return true } }; return false }",
	"Equal":    "func(a, b []%[2]s) bool { if len(a) != len(b) { return false }; for i := range a { if %[1]s.%[3]s(a[i]) != %[1]s.%[3]s(b[i]) { return false } }; return true }",
	"Compact":  "func(s []%[2]s) []%[2]s { if len(s) < 2 { return s }; k := 1; for i := 1; i < len(s); i++ { if %[1]s.%[3]s(s[i]) != %[1]s.%[3]s(s[k-1]) { s[k] = s[i]; k++ } }; var z %[2]s; for i := k; i < len(s); i++ { s[i] = z }; return s[:k] }",
}

func runIfaceCompare(c *Cell) {
	isIface := func(t types.Type) bool {
		_, param := t.(*types.TypeParam)
		return t != nil && !param && types.IsInterface(t)
	}
	key := func(e ast.Expr) ast.Expr {
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, e.Pos()), Sel: ident(prelude.RTCompareKey, e.Pos())}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ || isIdent(n.X, "nil") || isIdent(n.Y, "nil") {
				break
			}
			if isIface(c.Types.TypeOf(n.X)) || isIface(c.Types.TypeOf(n.Y)) {
				n.X, n.Y = key(n.X), key(n.Y)
			}
		case *ast.SwitchStmt:
			// switch g { case P{1, 2}: }, g an interface.
			if n.Tag == nil || !isIface(c.Types.TypeOf(n.Tag)) {
				break
			}
			n.Tag = key(n.Tag)
			for _, cl := range n.Body.List {
				cc := cl.(*ast.CaseClause)
				for i, e := range cc.List {
					if !isIdent(e, "nil") {
						cc.List[i] = key(e)
					}
				}
			}
		case *ast.CallExpr:
			c.sliceEquals(n)
		}
		return true
	})
}

// sliceEquals writes slices.Index(s, v) on a slice of an interface type
// as a function literal comparing keys (and Contains, Equal and Compact
// likewise): the engine's package slices compares with ==, which compares
// yaegi's wrappers.
func (c *Cell) sliceEquals(call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "slices" || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return
	}
	tmpl, ok := sliceEquals[fn.Name()]
	if !ok {
		return
	}
	for _, a := range call.Args {
		if _, unnamed := types.Unalias(c.Types.TypeOf(a)).(*types.Slice); !unnamed && fn.Name() != "Index" && fn.Name() != "Contains" {
			return // a named slice type: Go's result has it
		}
	}
	st, ok := typeUnder(c.Types.TypeOf(call.Args[0])).(*types.Slice)
	if !ok {
		return
	}
	if _, param := st.Elem().(*types.TypeParam); param || !types.IsInterface(st.Elem()) {
		return
	}
	elem, ok := c.Types.TypeString(st.Elem())
	if !ok {
		return
	}
	lit, err := parser.ParseExpr(fmt.Sprintf(tmpl, prelude.Runtime, elem, prelude.RTCompareKey))
	if err != nil {
		return
	}
	call.Fun = AtPos(lit, call.Pos())
}
