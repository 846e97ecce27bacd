package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// panicValues: panic(v) and recover(). yaegi v0.16.1 raises an
// interpreted panic(v) with v inside a reflect.Value (interp/run.go:927,
// _panic) and its recover() returns what was raised (interp/run.go:903,
// _recover), so r.(T), r.(error) and type switches on a recovered value
// failed; and a value of a cell type reached the engine without its type
// (panic(Code(7)) was reported as 7, Go main.Code(7)). A value whose type
// needs the printer (see fmtArgs) is raised as grundyrt.Panic(v, desc)
// (see raise),
// and every recover() is grundyrt.Recovered(recover()), which gives the
// value back as Go's recover() does (and the runtime's errors where the
// interpreter raised reflect's); outside a literal written in a defer
// statement, grundyrt.Recovered(grundyrt.Relayed(recover())), which also
// takes the panic a relay hands a function deferred through a value (see
// funcdefers). A recover() among a cell's statements is nil.
var panicValues = Pass{
	Name:     "panicvalues",
	Run:      runPanicValues,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"recover_cell_values", "recover_at_cell_top_level", "recover_panic_nil"},
}

func runPanicValues(c *Cell) {
	deferred := deferredLiterals(c)
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if isIdent(n.Fun, "recover") && len(n.Args) == 0 && c.isBuiltin(n.Fun) {
				pos := n.Pos()
				if cur.TopLevel() {
					// Among a cell's statements no deferred function
					// calls it (in "defer recover()" the runtime
					// does), so it is nil, as in Go; yaegi's _recover
					// reads the caller's frame, which the cell's has
					// not (interp/run.go:908): a nil dereference.
					any := &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
					ret := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos)}}
					nilFunc := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}, Results: &ast.FieldList{List: []*ast.Field{{Type: any}}}},
						Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{ret}, Rbrace: pos}}
					cur.Replace(&ast.CallExpr{Fun: nilFunc, Lparen: pos, Rparen: n.End()})
					return true
				}
				var r ast.Expr = n
				switch f := cur.FuncNode.(type) {
				case *ast.FuncDecl:
					// A function deferred through a value takes its
					// panic from a relay (see funcdefers).
					if fn, ok := c.Types.Defs[f.Name].(*types.Func); ok {
						r = relayedRecover(n, funcKeyOf(fn))
					}
				case *ast.FuncLit:
					if !deferred[f] {
						r = relayedRecover(n, c.litKey(f))
					}
				}
				cur.Replace(&ast.CallExpr{Fun: rtSelector(prelude.RTRecovered, pos), Lparen: pos, Args: []ast.Expr{r}, Rparen: n.End()})
			}
		case *ast.ExprStmt:
			if r := c.raise(n); r != nil {
				cur.Replace(r)
			}
		}
		return true
	})
}

// raise is the statement panic(x) raising grundyrt.Panic(x, desc) when
// x's type needs the printer (an interface among them) or x is nil, nil
// otherwise. x goes through a variable of
// its type, then one of type any: the interpreter keeps a value's dynamic
// type (its methods) when it assigns a variable to an interface variable,
// not when it converts an expression.
//
//	{ var _grundyT1 T = x; var _grundyP2 any = _grundyT1; panic(grundyrt.Panic(_grundyP2, desc)) }
func (c *Cell) raise(s *ast.ExprStmt) ast.Stmt {
	call, ok := s.X.(*ast.CallExpr)
	if !ok || !isIdent(call.Fun, "panic") || len(call.Args) != 1 || call.Ellipsis.IsValid() || !c.isBuiltin(call.Fun) {
		return nil
	}
	x := call.Args[0]
	t := c.Types.TypeOf(x)
	if t == nil {
		// A pass's conversion to panic's parameter (cellIfaceValues'
		// _grundyIfaceAny_N(s) of a cell interface): an any.
		t = types.Universe.Lookup("any").Type()
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		// Panic raises Go's *runtime.PanicNilError for it.
		pos := x.Pos()
		call.Args[0] = &ast.CallExpr{Fun: rtSelector(prelude.RTPanic, pos), Lparen: pos, Args: []ast.Expr{x, descLit(types.Typ[types.UntypedNil], pos)}, Rparen: x.End()}
		return s
	}
	// (An interface's value may be nil: Panic raises Go's
	// *runtime.PanicNilError for it. A reflect.Value goes in Panic's
	// box too: Recovered takes the interpreter's reflect.Values off what
	// it raised, as many as there are, and would take the cell's.)
	if t == nil || !needsPrinter(t) && !types.IsInterface(t) && !isReflectValue(t) {
		return nil
	}
	extra, ok := c.methodArgs(t, x.Pos())
	if !ok {
		return nil
	}
	pos := x.Pos()
	var list []ast.Stmt
	if te, ok := c.TypeExpr(t, pos); ok && !types.IsInterface(t) {
		// Through a variable of its type: the interpreter keeps the
		// type of a variable it assigns, not of an expression.
		tv := c.Temp("T")
		list = append(list, varInit(tv, te, x))
		x = ident(tv, pos)
	}
	v := c.Temp("P")
	list = append(list, varInit(v, ident("any", pos), x), s)
	args := append([]ast.Expr{ident(v, pos), descLit(t, pos)}, extra...)
	call.Args[0] = &ast.CallExpr{Fun: rtSelector(prelude.RTPanic, pos), Lparen: pos, Args: args, Rparen: call.Args[0].End()}
	return &ast.BlockStmt{Lbrace: s.Pos(), List: list, Rbrace: s.End()}
}

// varInit is "var name typ = value".
func varInit(name string, typ, value ast.Expr) ast.Stmt {
	pos := value.Pos()
	return &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(name, pos)}, Type: typ, Values: []ast.Expr{value}}}}}
}

// deferredLiterals are the function literals written in the cell's defer
// statements (defer func() { ... }()).
func deferredLiterals(c *Cell) map[*ast.FuncLit]bool {
	lits := map[*ast.FuncLit]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if d, ok := n.(*ast.DeferStmt); ok {
				if lit, ok := d.Call.Fun.(*ast.FuncLit); ok {
					lits[lit] = true
				}
			}
			return true
		})
	}
	return lits
}

// litKey names a function literal for relays: where it is in the cell.
func (c *Cell) litKey(lit *ast.FuncLit) string {
	p := c.Fset.Position(lit.Pos())
	return "func@" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// relayedRecover is grundyrt.Relayed(recover(), fn), for recover() the
// call r in the function fn (its key: f, T.M, or a literal's litKey).
func relayedRecover(r *ast.CallExpr, fn string) ast.Expr {
	return &ast.CallExpr{Fun: rtSelector(prelude.RTRelayed, r.Pos()), Lparen: r.Pos(), Args: []ast.Expr{r, stringLit(fn, r.Pos())}, Rparen: r.End()}
}

// relayedRecovers makes recover() in a deferred literal (not in the
// functions nested in it) take the panic of a relay naming fn, for a
// literal that funcdefers defers through one.
func relayedRecovers(body *ast.BlockStmt, fn string) {
	applyIn(body, func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && cur.FuncNode == nil && isIdent(call.Fun, "recover") && len(call.Args) == 0 {
			cur.Replace(relayedRecover(call, fn))
		}
		return true
	})
}
