package compat

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/prelude"
)

// The tools passes share for reading and writing syntax.

const tempPrefix = prelude.Temp

// Cursor is astutil's cursor with the function the node is in.
type Cursor struct {
	*astutil.Cursor
	// Func is the type of the innermost function (declaration or
	// literal) around the node, FuncNode the function; both nil for a
	// cell's top-level statements.
	Func     *ast.FuncType
	FuncNode ast.Node
}

// TopLevel reports whether the node is among a cell's top-level
// statements (in no function).
func (cur Cursor) TopLevel() bool { return cur.Func == nil }

// Apply calls post on every node of the cell after its children, as
// astutil.Apply does, with the function the node is in: replacing a node
// with the cursor rewrites the cell.
func (c *Cell) Apply(post func(cur Cursor) bool) {
	for _, root := range c.Roots() {
		applyIn(root, post)
	}
}

func applyIn(root ast.Node, post func(cur Cursor) bool) {
	var funcs []ast.Node
	astutil.Apply(root, func(ac *astutil.Cursor) bool {
		switch n := ac.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = append(funcs, n)
		}
		return true
	}, func(ac *astutil.Cursor) bool {
		switch ac.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = funcs[:len(funcs)-1]
		}
		cur := Cursor{Cursor: ac}
		if len(funcs) > 0 {
			cur.FuncNode = funcs[len(funcs)-1]
			switch f := cur.FuncNode.(type) {
			case *ast.FuncDecl:
				cur.Func = f.Type
			case *ast.FuncLit:
				cur.Func = f.Type
			}
		}
		return post(cur)
	})
}

// resultTypes lists the types of a function type's results, one per
// result, from the oracle (nil entries where unknown).
func (c *Cell) resultTypes(ft *ast.FuncType) []types.Type {
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []types.Type
	for _, f := range ft.Results.List {
		t := c.Types.TypeOf(f.Type)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

// ExprString prints syntax as Go source.
func ExprString(n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), n)
	return b.String()
}

var posType = reflect.TypeFor[token.Pos]()

// AtPos sets every position in the syntax tree n to pos: yaegi resolves
// package names per file, by position, so generated code must lie in the
// cell.
func AtPos[N ast.Node](n N, pos token.Pos) N {
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		v := reflect.ValueOf(x)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			// Only set positions: an unset one can mean something (no
			// "..." in a call, for one).
			if f := v.Field(i); f.Type() == posType && f.CanSet() && token.Pos(f.Int()).IsValid() {
				f.Set(reflect.ValueOf(pos))
			}
		}
		return true
	})
	return n
}

// ident is a new identifier at pos.
func ident(name string, pos token.Pos) *ast.Ident { return &ast.Ident{Name: name, NamePos: pos} }

// define is "lhs := rhs".
func define(pos token.Pos, lhs []ast.Expr, rhs ...ast.Expr) *ast.AssignStmt {
	return &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: pos}
}

// funcLit is func() results { body } at pos.
func funcLit(pos, end token.Pos, results *ast.FieldList, body ...ast.Stmt) *ast.FuncLit {
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}, Results: results},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: end},
	}
}

// called is f() at the end of f.
func called(f ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: f, Lparen: f.End(), Rparen: f.End()}
}

// results is a result list of the given types.
func results(types ...ast.Expr) *ast.FieldList {
	fl := &ast.FieldList{}
	for _, t := range types {
		fl.List = append(fl.List, &ast.Field{Type: t})
	}
	return fl
}

// isIdent reports whether e is the identifier name.
func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// contains reports whether some node under n satisfies f (function
// literals included unless skipFuncs).
func contains(n ast.Node, skipFuncs bool, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if found || x == nil {
			return false
		}
		if _, lit := x.(*ast.FuncLit); lit && skipFuncs {
			return false
		}
		if f(x) {
			found = true
		}
		return !found
	})
	return found
}

// builtins are Go's builtin functions (min, max and clear are the
// prelude's, generic functions that cannot be bound to variables either).
var builtins = map[string]bool{"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true}

// isBuiltin reports whether e names a builtin function: by the oracle, or
// by its name in code a pass wrote.
func (c *Cell) isBuiltin(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok || !builtins[id.Name] {
		return false
	}
	if obj := c.Types.ObjectOf(id); obj != nil {
		_, b := obj.(*types.Builtin)
		return b
	}
	return true
}

// TypeExpr writes the type t as source positioned at pos: packages by the
// names the session knows them by. ok is false when the cell has no way
// to name t.
func (c *Cell) TypeExpr(t types.Type, pos token.Pos) (ast.Expr, bool) {
	s, ok := c.Types.TypeString(t)
	if !ok {
		return nil, false
	}
	x, err := parser.ParseExpr(s)
	if err != nil {
		return nil, false
	}
	return AtPos(x, pos), true
}

// evaluated binds a call's function (unless it is a builtin, which cannot
// be a value) and arguments to new variables, as Go evaluates them where a
// go or defer statement stands: it returns the binding (nil when there is
// nothing to bind) and the call of the bound values, to be made later.
func (c *Cell) evaluated(call *ast.CallExpr, pos token.Pos) (bind *ast.AssignStmt, later *ast.CallExpr) {
	var lhs, rhs []ast.Expr
	fun := call.Fun
	if !c.isBuiltin(fun) {
		f := c.Temp("F")
		lhs, rhs = append(lhs, ident(f, pos)), append(rhs, fun)
		fun = ident(f, pos)
	}
	var args []ast.Expr
	for _, a := range call.Args {
		t := c.Temp("A")
		lhs, rhs = append(lhs, ident(t, pos)), append(rhs, a)
		args = append(args, ident(t, pos))
	}
	later = &ast.CallExpr{Fun: fun, Args: args, Ellipsis: call.Ellipsis, Lparen: call.Lparen, Rparen: call.Rparen}
	if len(lhs) > 0 {
		bind = define(pos, lhs, rhs...)
	}
	return bind, later
}
