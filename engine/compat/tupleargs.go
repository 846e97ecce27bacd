package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// tupleArgs: a call f(g()) of an interpreted function f with the several
// results of g hands them to f through variables:
//
//	show(f())      =>  { _grundyTa1, _grundyTa2 := f(); show(_grundyTa1, _grundyTa2) }
//	v := must(f()) =>  v := func() Valued { _grundyTa1, _grundyTa2 := f(); return must(_grundyTa1, _grundyTa2) }()
//
// yaegi v0.16.1 converts each of g's results as f's first parameter wants
// (interp/run.go:1210, arg is the parameter of the one argument written):
// with a cell's interface first (func show(v Valued, err error)), the
// error was put in a cell interface's box too and the call panicked
// "reflect.Set: value of type interp.valueInterface is not assignable to
// type error"; with any first, a value of a type on a basic type went in
// bare (printed 5 for *5). From variables, each argument is converted on
// its own. Among a cell's statements, where yaegi defines no variables
// in a block, a statement is written as an expression is. Only calls
// whose parameters there include an interface are written so: with none,
// the results pass as they are, as Go passes them.
//
// A call that hands a result of a type other than an interface to a
// parameter of an interface type is written so before the passes that
// convert arguments (convertedTupleArgs), its variables typed, so that
// each is converted as a single argument is (a nil *E for an error
// parameter was a nil interface, silently); the others after them
// (tupleArgs), as those passes read the call (must(f()) of f's (Valued,
// error), an any handed on in parentheses). A native function's call is
// written so too when it converts a result (errors.Join(pair()) panicked
// in reflect), and so is a deferred one or a goroutine's (defer
// report(two()) saw err == nil).
var tupleArgs = Pass{
	Name:     "tupleargs",
	Run:      func(c *Cell) { runTupleArgs(c, false) },
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"tuple_args_to_interfaces"},
}

// convertedTupleArgs is tupleArgs for the calls whose results the passes
// after convert (see above).
var convertedTupleArgs = Pass{
	Name:     "convertedtupleargs",
	Run:      func(c *Cell) { runTupleArgs(c, true) },
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"tuple_args_typed_nils"},
}

func runTupleArgs(c *Cell, converted bool) {
	ofKind := func(call *ast.CallExpr) bool { return c.spreadEarly(call) == converted }
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.ExprStmt:
			call, ok := n.X.(*ast.CallExpr)
			if !ok || cur.Index() < 0 || !ofKind(call) {
				break
			}
			if cur.TopLevel() {
				// yaegi cannot define variables in a block among a
				// cell's statements (see funcScope); the value of the
				// last is shown.
				if lit, ok := c.tupleLit(call); ok {
					n.X = lit
				}
			} else if def := c.spreadTuple(call); def != nil {
				cur.Replace(&ast.BlockStmt{Lbrace: n.Pos(), List: []ast.Stmt{def, n}, Rbrace: n.End()})
			}
		case *ast.DeferStmt, *ast.GoStmt:
			// Go evaluates g() where the statement is (defer report(two())):
			// the variables are defined just before it; among a cell's
			// statements, where yaegi defines no variables in a block, they
			// are a function literal's parameters (defer func(_grundyTa1
			// int, _grundyTa2 *E) { report(_grundyTa1, _grundyTa2) }(two())).
			call, st := c.statementCall(n)
			if cur.Index() < 0 || !ofKind(call) {
				break
			}
			if cur.TopLevel() {
				if lit, ok := c.tupleParams(call); ok {
					setStatementCall(st, lit)
				}
			} else if def := c.spreadTuple(call); def != nil {
				cur.Replace(&ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{def, st}, Rbrace: st.End()})
			}
		case *ast.CallExpr:
			switch cur.Parent().(type) {
			case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
				return true // (a statement's call is written above; g runs elsewhere with go and defer)
			}
			if !ofKind(n) {
				return true
			}
			if lit, ok := c.tupleLit(n); ok {
				cur.Replace(lit)
			}
		}
		return true
	})
}

// tupleParams is call f(g()), when tupleArg, as the call of a function
// literal taking g's results as parameters of their types and calling f
// with them (each then converted as a single argument is).
func (c *Cell) tupleParams(call *ast.CallExpr) (*ast.CallExpr, bool) {
	if !c.tupleArg(call) {
		return nil, false
	}
	g := call.Args[0]
	tuple := c.Types.TypeOf(g).(*types.Tuple)
	pos := call.Pos()
	tes, ok := c.typeExprs(tupleTypes(tuple), pos)
	if !ok {
		return nil, false
	}
	inner := *call
	inner.Args = nil
	lit := funcLit(pos, call.End(), nil, &ast.ExprStmt{X: &inner})
	for i, te := range tes {
		name := c.Temp("Ta")
		obj := types.NewVar(pos, c.Types.Pkg, name, tuple.At(i).Type())
		def, use := ident(name, pos), ident(name, pos)
		c.Types.Defs[def] = obj
		c.Types.Uses[use] = obj
		lit.Type.Params.List = append(lit.Type.Params.List, &ast.Field{Names: []*ast.Ident{def}, Type: te})
		inner.Args = append(inner.Args, use)
	}
	return &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{g}, Rparen: call.End()}, true
}

// setStatementCall makes call the call of st, a defer or go statement.
func setStatementCall(st ast.Stmt, call *ast.CallExpr) {
	switch st := st.(type) {
	case *ast.DeferStmt:
		st.Call = call
	case *ast.GoStmt:
		st.Call = call
	}
}

// spreadEarly reports whether convertedTupleArgs, not tupleArgs, spreads
// call: the passes after convert its results, or f is a built-in function
// (delete(pair()) of a map keyed by any looks its key up as a single one,
// interned, when the passes after see the spread).
func (c *Cell) spreadEarly(call *ast.CallExpr) bool {
	return c.isBuiltin(call.Fun) || c.convertedTuple(call)
}

// convertedTuple reports whether call f(g()) hands one of g's results of
// a type other than an interface to a parameter of an interface type.
func (c *Cell) convertedTuple(call *ast.CallExpr) bool {
	tuple, sig, ok := c.tupleCall(call)
	if !ok {
		return false
	}
	for i := range tuple.Len() {
		if pt := paramType(sig, i, false); pt != nil && types.IsInterface(pt) && !types.IsInterface(tuple.At(i).Type()) {
			return true
		}
	}
	return false
}

// tupleLit is call f(g()), when tupleArg, made by a function literal
// that defines g's results as variables and returns f's.
func (c *Cell) tupleLit(call *ast.CallExpr) (ast.Expr, bool) {
	if !c.tupleArg(call) {
		return nil, false
	}
	return c.callAfter(call, func() (ast.Stmt, *ast.CallExpr) { return c.spreadTuple(call), call })
}

// callAfter is the call of a function literal that runs the statement
// and then the call that rewrite gives, returning its results, which
// are call's: func() R { def; return out }(). rewrite runs only once the
// result types are written.
func (c *Cell) callAfter(call *ast.CallExpr, rewrite func() (def ast.Stmt, out *ast.CallExpr)) (ast.Expr, bool) {
	pos := call.Pos()
	var fields *ast.FieldList
	ts := tupleTypes(c.Types.TypeOf(call))
	if len(ts) > 0 {
		tes, ok := c.typeExprs(ts, pos)
		if !ok {
			return nil, false
		}
		fields = results(tes...)
	}
	def, out := rewrite()
	var body ast.Stmt = &ast.ExprStmt{X: out}
	if len(ts) > 0 {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{out}}
	}
	return &ast.CallExpr{Fun: funcLit(pos, call.End(), fields, def, body), Lparen: pos, Rparen: call.End()}, true
}

// tupleArg reports whether call is an interpreted call f(g()) that
// tupleArgs writes through variables.
func (c *Cell) tupleArg(call *ast.CallExpr) bool {
	if len(call.Args) != 1 || c.Types.IsType(call.Fun) {
		return false
	}
	if c.isBuiltin(call.Fun) {
		// yaegi v0.16.1 took append(sl()) for append of sl's first
		// result alone, silently, and could not compile copy(cp()),
		// delete(mk()) or complex(two()) (min, max and print spread).
		// (append(tail()...) of tail's ([]byte, string) too: the
		// variables keep the spread.)
		_, tuple := c.Types.TypeOf(call.Args[0]).(*types.Tuple)
		return tuple && spreadBuiltins[call.Fun.(*ast.Ident).Name]
	}
	if call.Ellipsis.IsValid() {
		return false
	}
	if !c.interpreted(call) {
		// A native function converts each of g's results by reflect,
		// which knows no cell type's methods (errors.Join(pair()) with
		// pair's *E panicked "Call using *struct {...} as type error"):
		// the passes after convert each as a single argument.
		return c.convertedTuple(call)
	}
	tuple, sig, ok := c.tupleCall(call)
	return ok && ifaceParams(sig, tuple.Len())
}

// spreadBuiltins are the built-in functions whose f(g()) tupleArgs
// writes through variables.
var spreadBuiltins = map[string]bool{"append": true, "copy": true, "delete": true, "complex": true}

// tupleCall is the results of g and the signature of f in call f(g()),
// with one argument of several results; !ok for another call.
func (c *Cell) tupleCall(call *ast.CallExpr) (*types.Tuple, *types.Signature, bool) {
	if len(call.Args) != 1 {
		return nil, nil, false
	}
	tuple, ok := c.Types.TypeOf(call.Args[0]).(*types.Tuple)
	sig, isSig := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	return tuple, sig, ok && isSig
}

// spreadTuple writes call f(g()), when tupleArg, as f(_grundyTa1, ...)
// and returns the definition of those variables from g(); else nil.
func (c *Cell) spreadTuple(call *ast.CallExpr) ast.Stmt {
	if !c.tupleArg(call) {
		return nil
	}
	g := call.Args[0]
	tuple := c.Types.TypeOf(g).(*types.Tuple)
	def, vars := c.defineTemps("Ta", g, tuple.Len())
	// Typed, for the passes after: each argument is converted on its own
	// as a single one is (a nil *E for an error parameter is wrapped).
	for i, v := range vars {
		id := v.(*ast.Ident)
		obj := types.NewVar(id.Pos(), c.Types.Pkg, id.Name, tuple.At(i).Type())
		c.Types.Defs[def.(*ast.AssignStmt).Lhs[i].(*ast.Ident)] = obj
		c.Types.Uses[id] = obj
	}
	call.Args = vars
	return def
}

// ifaceParams reports whether one of sig's first n parameters is of an
// interface type.
func ifaceParams(sig *types.Signature, n int) bool {
	for i := range n {
		if t := paramType(sig, i, false); t != nil && types.IsInterface(t) {
			return true
		}
	}
	return false
}

// typeExprs writes each of ts as source (see TypeExpr); false if one
// cannot be written.
func (c *Cell) typeExprs(ts []types.Type, pos token.Pos) ([]ast.Expr, bool) {
	out := make([]ast.Expr, len(ts))
	for i, t := range ts {
		te, ok := c.TypeExpr(t, pos)
		if !ok {
			return nil, false
		}
		out[i] = te
	}
	return out, true
}

// tupleTypes lists the types of t, a tuple's elements or t alone (none
// for nil or an empty tuple).
func tupleTypes(t types.Type) []types.Type {
	tup, ok := t.(*types.Tuple)
	if !ok {
		if t == nil {
			return nil
		}
		return []types.Type{t}
	}
	out := make([]types.Type, tup.Len())
	for i := range tup.Len() {
		out[i] = tup.At(i).Type()
	}
	return out
}
