package engine

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The rewriter brings a cell's syntax tree to what yaegi v0.16.1 runs
// correctly: range over integers, Go 1.22 per-iteration loop variables,
// goroutines that cannot crash the process, iterator idioms over maps and
// slices, and display calls that see the methods of cell-defined types.

type rewriter struct {
	it     *Interp
	types  *typecheck.Info   // the cell's types, checked before any rewriting
	slices map[string]bool   // names the cell assigns a slice literal to
	errs   map[string]string // names the cell declares as error ("error"), []error ("slice") or map[K]error ("map")
	tmp    int

	// For typeOf/astTypeOf (range over function iterators): variables the
	// code declares so far with their types when known, the functions of
	// the cell, the enclosing function literals and declarations.
	locals       map[string]reflect.Type
	localAST     map[string]ast.Expr
	cellFuncs    map[string]*ast.FuncDecl
	cellTypes    map[string]*ast.TypeSpec
	cellMethods  map[string]*ast.FuncDecl // by funcKey: "T.M"
	insts        map[string]*ast.FuncDecl // copies of generic functions (see monomorphize)
	globalsCache map[string]reflect.Value
	fnStack      []*ast.FuncType
	err          *EvalError // the first construct the rewriter refuses
}

// fail records a one-line error for a construct the engine cannot run.
func (rw *rewriter) fail(pos token.Pos, msg string) {
	if rw.err != nil {
		return
	}
	if rw.it != nil && pos.IsValid() {
		msg = rw.it.fset.Position(pos).String() + ": " + msg
	}
	rw.err = &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
}

func rewriteFile(f *ast.File, it *Interp) *EvalError {
	rw := newRewriter(it, f)
	rw.noteDecls(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				clear(rw.locals)
				clear(rw.localAST)
				rw.noteParams(d.Type)
				rw.fnStack = append(rw.fnStack[:0], d.Type)
				rw.block(d.Body)
				rw.fnStack = rw.fnStack[:0]
			}
		case *ast.GenDecl:
			rw.exprsIn(d)
		}
	}
	for _, name := range sortedKeys(rw.insts) {
		f.Decls = append(f.Decls, rw.insts[name])
		rw.pkgVars(rw.insts[name]) // (copies: the oracle has not seen them)
	}
	return rw.err
}

// noteDecls records the functions, methods and types the cell declares.
func (rw *rewriter) noteDecls(f *ast.File) {
	if f == nil {
		return
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			rw.cellFuncs[fd.Name.Name] = fd
		} else if ok {
			rw.cellMethods[funcKey(fd)] = fd
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				rw.cellTypes[ts.Name.Name] = ts
			}
		}
	}
}

// rewriteBlock rewrites a cell's statements (cellDecls are the cell's own
// declarations); decls are the functions the statements need declared
// first.
func rewriteBlock(b *ast.BlockStmt, it *Interp, cellDecls *ast.File) (decls []ast.Decl, err *EvalError) {
	rw := newRewriter(it, b)
	rw.noteDecls(cellDecls)
	rw.block(b)
	if rw.err != nil {
		return nil, rw.err
	}
	if n := len(b.List); n > 0 {
		// A trailing []C{...} shows as fmt would print it (see
		// basicFmtStrings).
		if es, ok := b.List[n-1].(*ast.ExprStmt); ok {
			t := rw.astTypeOf(es.X)
			_, call := es.X.(*ast.CallExpr)
			if !rw.hasMethods(t) {
				if r := rw.basicFmtStrings(es.X); r != nil {
					es.X = r
				}
			} else if _, named := t.(*ast.Ident); named && call {
				// yaegi shows a bare call's result without its type's
				// methods (mk() showed {1 2}, not its String); in
				// parentheses it keeps them.
				es.X = &ast.ParenExpr{Lparen: es.X.Pos(), X: es.X, Rparen: es.X.End()}
			}
		}
	}
	if it != nil {
		// Remember the source types of the cell's variables, for
		// iterators over methods of cell types in later cells.
		for _, s := range b.List {
			names, _ := definedNames(s)
			for _, n := range names {
				if t, ok := rw.localAST[n]; ok {
					it.varAST[n] = t
				} else {
					delete(it.varAST, n)
				}
			}
		}
	}
	for _, name := range sortedKeys(rw.insts) {
		decls = append(decls, rw.insts[name])
	}
	for _, d := range decls {
		rw.pkgVars(d)
	}
	return decls, nil
}

func newRewriter(it *Interp, root ast.Node) *rewriter {
	rw := &rewriter{it: it, slices: map[string]bool{}, errs: map[string]string{},
		locals: map[string]reflect.Type{}, localAST: map[string]ast.Expr{}, cellFuncs: map[string]*ast.FuncDecl{},
		cellTypes: map[string]*ast.TypeSpec{}, cellMethods: map[string]*ast.FuncDecl{}, insts: map[string]*ast.FuncDecl{}}
	if it != nil {
		rw.types = it.info
	}
	ast.Inspect(root, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				id, ok := as.Lhs[i].(*ast.Ident)
				if !ok {
					continue
				}
				if cl, ok := r.(*ast.CompositeLit); ok {
					switch cl.Type.(type) {
					case *ast.ArrayType, *ast.MapType:
						rw.slices[id.Name] = true
					}
				}
				if c, ok := r.(*ast.CallExpr); ok && isIdent(c.Fun, "make") && len(c.Args) > 0 {
					if _, isMap := c.Args[0].(*ast.MapType); isMap {
						rw.slices[id.Name] = true
					}
				}
			}
		}
		if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil && holdsErrors(vs.Type) {
			for _, id := range vs.Names {
				rw.errs[id.Name] = errKind(vs.Type)
			}
		}
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if cl, ok := r.(*ast.CompositeLit); ok && cl.Type != nil && holdsErrors(cl.Type) {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						rw.errs[id.Name] = errKind(cl.Type)
					}
				}
			}
		}
		return true
	})
	return rw
}

func (rw *rewriter) block(b *ast.BlockStmt) {
	if b == nil {
		return
	}
	for i, s := range b.List {
		b.List[i] = rw.stmt(s)
	}
}

func (rw *rewriter) stmts(list []ast.Stmt) {
	for i, s := range list {
		list[i] = rw.stmt(s)
	}
}

func (rw *rewriter) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.BlockStmt:
		rw.block(s)
	case *ast.IfStmt:
		rw.exprsIn(s.Cond)
		if s.Init != nil {
			s.Init = rw.stmt(s.Init)
		}
		rw.block(s.Body)
		if s.Else != nil {
			s.Else = rw.stmt(s.Else)
		}
	case *ast.ForStmt:
		if s.Init != nil {
			s.Init = rw.stmt(s.Init)
		}
		rw.exprsIn(s.Cond)
		rw.block(s.Body)
	case *ast.RangeStmt:
		rw.exprsIn(s.X)
		rw.noteRangeVars(s)
		rw.block(s.Body)
	case *ast.SwitchStmt:
		if s.Init != nil {
			s.Init = rw.stmt(s.Init)
		}
		rw.exprsIn(s.Tag)
		rw.block(s.Body)
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			s.Init = rw.stmt(s.Init)
		}
		rw.block(s.Body)
	case *ast.SelectStmt:
		rw.block(s.Body)
	case *ast.CaseClause:
		for _, e := range s.List {
			rw.exprsIn(e)
		}
		rw.stmts(s.Body)
	case *ast.CommClause:
		if s.Comm != nil {
			s.Comm = rw.stmt(s.Comm)
		}
		rw.stmts(s.Body)
	case *ast.LabeledStmt:
		s.Stmt = rw.stmt(s.Stmt)
	case *ast.GoStmt:
		rw.exprsIn(s.Call)
	case *ast.DeferStmt:
		rw.exprsIn(s.Call)
	case *ast.ExprStmt:
		rw.exprsIn(s.X)
	case *ast.AssignStmt:
		for _, e := range s.Rhs {
			rw.exprsIn(e)
		}
		rw.noteDefine(s)
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			rw.exprsIn(e)
		}
	case *ast.DeclStmt:
		rw.exprsIn(s.Decl)
		rw.noteDefine(s)
	case *ast.SendStmt:
		rw.exprsIn(s.Value)
	}
	return s
}

// exprsIn rewrites the expressions inside n: function literal bodies and
// calls that need the engine's help.
func (rw *rewriter) exprsIn(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			rw.noteParams(x.Type)
			rw.fnStack = append(rw.fnStack, x.Type)
			rw.block(x.Body)
			rw.fnStack = rw.fnStack[:len(rw.fnStack)-1]
			return false
		case *ast.CallExpr:
			rw.call(x)
		}
		return true
	})
}

// holdsErrors: error, []error, [N]error or map[K]error.
func holdsErrors(t ast.Expr) bool {
	switch x := t.(type) {
	case *ast.Ident:
		return x.Name == "error"
	case *ast.ArrayType:
		return holdsErrors(x.Elt) && isErrorIdent(x.Elt)
	case *ast.MapType:
		return isErrorIdent(x.Value)
	}
	return false
}

func isErrorIdent(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "error"
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

var typesError = types.Universe.Lookup("error").Type()

func errKind(t ast.Expr) string {
	switch t.(type) {
	case *ast.ArrayType:
		return "slice"
	case *ast.MapType:
		return "map"
	}
	return "error"
}

// errorVarKind: whether e names a variable of type error ("error"),
// []error ("slice") or map[K]error ("map"), declared in the cell or live in
// the session; "" otherwise.
func (rw *rewriter) errorVarKind(e ast.Expr) string {
	id, ok := e.(*ast.Ident)
	if !ok {
		return ""
	}
	if t := rw.types.TypeOf(e); t != nil {
		switch u := t.Underlying().(type) {
		case *types.Interface:
			if types.Identical(t, typesError) {
				return "error"
			}
		case *types.Slice:
			if types.Identical(u.Elem(), typesError) {
				return "slice"
			}
		case *types.Array:
			if types.Identical(u.Elem(), typesError) {
				return "slice"
			}
		case *types.Map:
			if types.Identical(u.Elem(), typesError) {
				return "map"
			}
		}
		return ""
	}
	if k, ok := rw.errs[id.Name]; ok {
		return k
	}
	if rw.it == nil {
		return ""
	}
	v, ok := rw.it.globalValues()[id.Name]
	if !ok || !v.IsValid() {
		return ""
	}
	t := v.Type()
	switch {
	case t == errorType:
		return "error"
	case t.Kind() == reflect.Slice && t.Elem() == errorType:
		return "slice"
	case t.Kind() == reflect.Map && t.Elem() == errorType:
		return "map"
	}
	return ""
}

// errorSpecs wraps the values of "var x error = v".
func (rw *rewriter) errorSpecs(d ast.Decl) {
	gd, ok := d.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		if vs.Type != nil && isErrorIdent(vs.Type) {
			for i, v := range vs.Values {
				vs.Values[i] = asError(v)
			}
		}
	}
}

// errorResults wraps the values a return statement gives to results of
// type error (see _grundyAsError).
func (rw *rewriter) errorResults(s *ast.ReturnStmt) {
	if len(rw.fnStack) == 0 {
		return
	}
	ft := rw.fnStack[len(rw.fnStack)-1]
	if ft.Results == nil {
		return
	}
	var types []ast.Expr
	for _, f := range ft.Results.List {
		for range max(1, len(f.Names)) {
			types = append(types, f.Type)
		}
	}
	if len(types) != len(s.Results) {
		return
	}
	for i, t := range types {
		if isErrorIdent(t) {
			s.Results[i] = rw.toError(s.Results[i])
		}
	}
}

// toError is asError, except for a value already of type error, which
// needs no conversion (a return err in a loop stays a plain return).
func (rw *rewriter) toError(e ast.Expr) ast.Expr {
	if rw.isErrorExpr(e) {
		return e
	}
	return asError(e)
}

func asError(e ast.Expr) ast.Expr {
	if c, ok := e.(*ast.CallExpr); ok {
		if id, ok := c.Fun.(*ast.Ident); ok && id.Name == prelude.AsError {
			return e
		}
	}
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return e
	}
	return &ast.CallExpr{Fun: &ast.Ident{Name: prelude.AsError, NamePos: e.Pos()}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
}

// call rewrites display.Show/Render to the interpreted helpers, and puts a
// typed argument first in min/max so yaegi infers the right type.
func (rw *rewriter) call(c *ast.CallExpr) {
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && c.Ellipsis.IsValid() && rw.it.pkgs["fmt"] == "fmt" {
			if skip, ok := fmtArgStart[sel.Sel.Name]; ok && len(c.Args) == skip+1 {
				last := c.Args[skip]
				c.Args[skip] = &ast.CallExpr{Fun: &ast.Ident{Name: prelude.FmtSpread, NamePos: last.Pos()}, Args: []ast.Expr{last}, Lparen: last.Pos(), Rparen: last.End()}
			}
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && !c.Ellipsis.IsValid() {
			if skip, ok := fmtArgStart[sel.Sel.Name]; ok {
				for i := skip; i < len(c.Args); i++ {
					if r := rw.basicFmtStrings(c.Args[i]); r != nil {
						c.Args[i] = r
					}
				}
			}
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && rw.fmtHookActive() && !c.Ellipsis.IsValid() {
			if skip, ok := fmtArgStart[sel.Sel.Name]; ok {
				// Only slices: other values keep their static type, which
				// is how yaegi lets fmt see their String method.
				for i := skip; i < len(c.Args); i++ {
					if rw.isSliceArg(c.Args[i]) {
						c.Args[i] = &ast.CallExpr{Fun: &ast.Ident{Name: prelude.FmtArg, NamePos: c.Args[i].Pos()}, Args: []ast.Expr{c.Args[i]}}
					}
				}
			}
			return
		}
		return
	}
}

// isSliceArg: a slice, array or map by its form, the cell's declarations
// or the live session.
func (rw *rewriter) isSliceArg(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CompositeLit:
		switch x.Type.(type) {
		case *ast.ArrayType, *ast.MapType:
			return true
		}
		return false
	case *ast.Ident:
		if rw.slices[x.Name] {
			return true
		}
		v, ok := rw.it.globalValues()[x.Name]
		return ok && v.IsValid() && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array || v.Kind() == reflect.Map)
	}
	return false
}

// fmtArgStart: where the values to format start in fmt's functions.
var fmtArgStart = map[string]int{
	"Print": 0, "Println": 0, "Sprint": 0, "Sprintln": 0,
	"Printf": 1, "Sprintf": 1, "Errorf": 1, "Fprint": 1, "Fprintln": 1,
	"Fprintf": 2, "Appendf": 2, "Append": 1, "Appendln": 1,
}

var builtinNames = map[string]bool{"append": true, "cap": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true}

// wantsShow: a trailing call to a printing function shows nothing even
// though it has results.
func wantsShow(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return true
	}
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return !builtinNames[f.Name] || f.Name == "len" || f.Name == "cap" || f.Name == "append" ||
			f.Name == "make" || f.Name == "new" || f.Name == "complex" || f.Name == "real" || f.Name == "imag"
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok {
			switch pkg.Name {
			case "fmt":
				return !strings.HasPrefix(f.Sel.Name, "Print") && !strings.HasPrefix(f.Sel.Name, "Fprint")
			case "log":
				return false
			}
		}
	}
	return true
}

// recordVars notes the globals a statement block declares.
func (it *Interp) recordVars(b *ast.BlockStmt) {
	for _, s := range b.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" && !strings.HasPrefix(id.Name, "_grundy") {
						it.globals[id.Name] = Global{Name: id.Name, Kind: "var"}
					}
				}
			}
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			kind := "var"
			if gd.Tok == token.CONST {
				kind = "const"
			}
			for _, sp := range gd.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok {
					continue
				}
				typ := ""
				if vs.Type != nil {
					typ = exprString(vs.Type)
				}
				for i, id := range vs.Names {
					if id.Name != "_" {
						it.globals[id.Name] = Global{Name: id.Name, Kind: kind, Type: typ}
						// The source type, for ranges over iterator
						// methods of cell types in later cells.
						if vs.Type != nil {
							it.varAST[id.Name] = vs.Type
						} else if len(vs.Values) == len(vs.Names) {
							if t := literalType(vs.Values[i]); t != nil {
								it.varAST[id.Name] = t
							}
						}
					}
				}
			}
		}
	}
}

// literalType is the type a composite literal (or its address) spells.
func literalType(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return x.Type
	case *ast.UnaryExpr:
		if cl, ok := x.X.(*ast.CompositeLit); ok && x.Op == token.AND && cl.Type != nil {
			return &ast.StarExpr{X: cl.Type}
		}
	}
	return nil
}

func exprString(n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), n)
	return b.String()
}

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
		u := it.fset.Position(at).String() + ": undefined: " + name + packageHint(name)
		return &EvalError{Name: "CompileError", Value: u, Traceback: []string{u}}
	}
	hint := pos + "the interpreter cannot compile this; rewrite it more plainly (split the statement, or move it into a function)"
	if strings.Contains(msg, "nil type") && hasRange(n) {
		hint = rangeHint + ": for an integer n write for i := 0; i < n; i++ (ranging over a function iterator is not supported: call it with a yield function)"
	}
	return &EvalError{Name: "CompileError", Value: hint, Traceback: []string{hint, "(interpreter: " + msg + ")"}}
}

const rangeHint = "cannot tell the type of a range expression"

func hasRange(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.RangeStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// noteRangeVars records a range loop's new variables as of unknown type.
func (rw *rewriter) noteRangeVars(s *ast.RangeStmt) {
	if s.Tok != token.DEFINE || rw.locals == nil {
		return
	}
	for _, e := range []ast.Expr{s.Key, s.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			rw.locals[id.Name] = nil
			delete(rw.localAST, id.Name)
		}
	}
}

// wrapVerbArgs lists the indexes of the arguments that %w verbs of a
// literal format string consume (none when the format uses explicit
// argument indexes or is not a literal).
func wrapVerbArgs(format ast.Expr) []int {
	lit, ok := format.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil
	}
	f, err := strconv.Unquote(lit.Value)
	if err != nil {
		return nil
	}
	var out []int
	arg := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("+-# 0123456789.*", f[i]) >= 0 {
			if f[i] == '*' {
				arg++
			}
			i++
		}
		if i >= len(f) || f[i] == '[' {
			return nil
		}
		switch f[i] {
		case '%':
		case 'w':
			out = append(out, arg)
			arg++
		default:
			arg++
		}
	}
	return out
}

// definedNames lists the variables a top-level statement declares.
func definedNames(s ast.Stmt) ([]string, bool) {
	var out []string
	switch st := s.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return nil, false
		}
		for _, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
				out = append(out, id.Name)
			}
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return nil, false
		}
		for _, sp := range gd.Specs {
			for _, n := range sp.(*ast.ValueSpec).Names {
				if n.Name != "_" {
					out = append(out, n.Name)
				}
			}
		}
	}
	return out, len(out) > 0
}

// errorTypeSwitch rewrites a type switch on a value of static type error
// into an expression switch over comma-ok assertions: yaegi v0.16.1's type
// switch compares the case types with its error wrapper's type, so no case
// of a cell-defined type ever matched, while its assertions look inside
// the wrapper. Only switches without an init statement are rewritten (one
// with an init would need an enclosing block, which a label could not
// break).
func (rw *rewriter) errorTypeSwitch(s *ast.TypeSwitchStmt) (ast.Stmt, bool) {
	if s.Init != nil {
		return nil, false
	}
	var subj ast.Expr
	var bind *ast.Ident
	switch a := s.Assign.(type) {
	case *ast.ExprStmt:
		subj = a.X
	case *ast.AssignStmt:
		if len(a.Lhs) != 1 || len(a.Rhs) != 1 {
			return nil, false
		}
		bind, _ = a.Lhs[0].(*ast.Ident)
		subj = a.Rhs[0]
	}
	ta, ok := subj.(*ast.TypeAssertExpr)
	if !ok || ta.Type != nil || !rw.isErrorExpr(ta.X) {
		return nil, false
	}
	pos := s.Switch
	tmp := func() *ast.Ident { return &ast.Ident{Name: "_grundyTS", NamePos: pos} }
	out := &ast.SwitchStmt{
		Switch: pos,
		Init:   &ast.AssignStmt{Lhs: []ast.Expr{tmp()}, Tok: token.DEFINE, TokPos: pos, Rhs: []ast.Expr{ta.X}},
		Body:   &ast.BlockStmt{Lbrace: s.Body.Lbrace, Rbrace: s.Body.Rbrace},
	}
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		nc := &ast.CaseClause{Case: cc.Case, Colon: cc.Colon}
		var cond ast.Expr
		for _, t := range cc.List {
			var c ast.Expr
			if id, ok := t.(*ast.Ident); ok && id.Name == "nil" {
				c = &ast.BinaryExpr{X: tmp(), OpPos: t.Pos(), Op: token.EQL, Y: &ast.Ident{Name: "nil", NamePos: t.Pos()}}
			} else {
				// func() bool { _, ok := _grundyTS.(T); return ok }()
				okID := func() *ast.Ident { return &ast.Ident{Name: "_grundyOK", NamePos: t.Pos()} }
				c = &ast.CallExpr{Fun: &ast.FuncLit{
					Type: &ast.FuncType{Func: t.Pos(), Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{Name: "bool", NamePos: t.Pos()}}}}},
					Body: &ast.BlockStmt{Lbrace: t.Pos(), Rbrace: t.End(), List: []ast.Stmt{
						&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: "_", NamePos: t.Pos()}, okID()}, Tok: token.DEFINE, TokPos: t.Pos(),
							Rhs: []ast.Expr{&ast.TypeAssertExpr{X: tmp(), Type: t, Lparen: t.Pos(), Rparen: t.End()}}},
						&ast.ReturnStmt{Return: t.Pos(), Results: []ast.Expr{okID()}},
					}},
				}, Lparen: t.End(), Rparen: t.End()}
			}
			if cond == nil {
				cond = c
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: t.Pos(), Op: token.LOR, Y: c}
			}
		}
		if cond != nil {
			nc.List = []ast.Expr{cond}
		}
		if bind != nil && bind.Name != "_" {
			var val ast.Expr = tmp()
			if len(cc.List) == 1 {
				if id, ok := cc.List[0].(*ast.Ident); !ok || id.Name != "nil" {
					val = &ast.TypeAssertExpr{X: tmp(), Type: cc.List[0], Lparen: cc.Colon, Rparen: cc.Colon}
				}
			}
			b := &ast.Ident{Name: bind.Name, NamePos: cc.Colon}
			nc.Body = append(nc.Body,
				&ast.AssignStmt{Lhs: []ast.Expr{b}, Tok: token.DEFINE, TokPos: cc.Colon, Rhs: []ast.Expr{val}},
				&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: "_", NamePos: cc.Colon}}, Tok: token.ASSIGN, TokPos: cc.Colon, Rhs: []ast.Expr{&ast.Ident{Name: bind.Name, NamePos: cc.Colon}}})
		}
		nc.Body = append(nc.Body, cc.Body...)
		out.Body.List = append(out.Body.List, nc)
	}
	return out, true
}

// isErrorExpr: whether e is known to have the static type error.
func (rw *rewriter) isErrorExpr(e ast.Expr) bool {
	if rw.errorVarKind(e) == "error" {
		return true
	}
	if t := rw.astTypeOf(e); t != nil {
		return isErrorIdent(t)
	}
	if rw.it != nil {
		return rw.typeOf(e) == errorType
	}
	return false
}

// errorArgs wraps the arguments a call of a cell function passes to
// parameters of type error (see _grundyAsError).
func (rw *rewriter) errorArgs(c *ast.CallExpr) {
	if c.Ellipsis.IsValid() {
		return
	}
	if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "error" && len(c.Args) == 1 && !rw.isVar("error") {
		if _, cell := rw.cellTypes["error"]; !cell {
			c.Fun = &ast.Ident{Name: prelude.AsError, NamePos: id.Pos()} // error(v)
			return
		}
	}
	var isErr func(i int) bool
	if ft, ok := rw.astTypeOf(c.Fun).(*ast.FuncType); ok && ft.Params != nil {
		// Cell functions, methods of cell types, function variables.
		var types []ast.Expr
		for _, f := range ft.Params.List {
			for range max(1, len(f.Names)) {
				types = append(types, f.Type)
			}
		}
		isErr = func(i int) bool {
			if n := len(types); n > 0 && i >= n-1 {
				if el, ok := types[n-1].(*ast.Ellipsis); ok {
					return isErrorIdent(el.Elt)
				}
			}
			return i < len(types) && isErrorIdent(types[i])
		}
	} else if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		// Native functions such as errors.Join.
		if pkg, ok := sel.X.(*ast.Ident); !ok || rw.isVar(pkg.Name) {
			return
		}
		t := rw.typeOf(c.Fun)
		if t == nil || t.Kind() != reflect.Func {
			return
		}
		isErr = func(i int) bool {
			switch n := t.NumIn(); {
			case t.IsVariadic() && i >= n-1:
				return t.In(n-1).Elem() == errorType
			case i < n:
				return t.In(i) == errorType
			}
			return false
		}
	} else {
		return
	}
	for i := range c.Args {
		if isErr(i) {
			c.Args[i] = rw.toError(c.Args[i])
		}
	}
}

// cellType finds a non-generic type declared in this cell or an earlier
// one (this cell's declaration wins).
func (rw *rewriter) cellType(name string) (*ast.TypeSpec, bool) {
	ts, ok := rw.cellTypes[name]
	if !ok && rw.it != nil {
		ts, ok = rw.it.types[name]
	}
	if !ok || ts.TypeParams != nil {
		return nil, false
	}
	return ts, true
}

// errorFields wraps the values a composite literal of a cell struct type
// gives to fields of type error (see _grundyAsError).
func (rw *rewriter) errorFields(cl *ast.CompositeLit) {
	id, ok := cl.Type.(*ast.Ident)
	if !ok || rw.it == nil {
		return
	}
	ts, ok := rw.cellType(id.Name)
	if !ok {
		return
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return
	}
	var names []string
	var isErr []bool
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			names = append(names, recvTypeName(f.Type))
			isErr = append(isErr, isErrorIdent(f.Type))
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
			isErr = append(isErr, isErrorIdent(f.Type))
		}
	}
	for i, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok {
				for j, n := range names {
					if n == k.Name && isErr[j] {
						kv.Value = rw.toError(kv.Value)
					}
				}
			}
		} else if i < len(isErr) && isErr[i] {
			cl.Elts[i] = rw.toError(el)
		}
	}
}

// errorComparison rewrites err == v and err != v, where err is known to be
// an error and v is not nil, to compare the values inside yaegi's error
// wrappers: comparing the wrappers themselves panics (they hold a func), and
// each conversion makes a new one.
func (rw *rewriter) errorComparison(b *ast.BinaryExpr) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return
	}
	for _, e := range []ast.Expr{b.X, b.Y} {
		if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
			return
		}
	}
	if !rw.isErrorExpr(b.X) && !rw.isErrorExpr(b.Y) {
		return
	}
	key := func(e ast.Expr) ast.Expr {
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: &ast.Ident{Name: prelude.Runtime, NamePos: e.Pos()}, Sel: &ast.Ident{Name: prelude.RTErrorKey, NamePos: e.Pos()}}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
	}
	b.X, b.Y = key(b.X), key(b.Y)
}

// basicFmtMethod is the method fmt calls (Error, else String) on values of
// the cell type t if t is defined on a basic type (type C float64). yaegi
// gives such a type its basic type's reflect type, so fmt cannot find the
// method on the elements of a slice or map, and no hook can tell []C from
// []float64 at run time: only the static type can.
func (rw *rewriter) basicFmtMethod(t ast.Expr) string {
	id, ok := t.(*ast.Ident)
	if !ok || rw.it == nil {
		return ""
	}
	ts, ok := rw.cellType(id.Name)
	if !ok || ts.Assign.IsValid() {
		return ""
	}
	if _, basic := rw.underlyingAST(ts.Type).(*ast.Ident); !basic {
		return ""
	}
	for _, m := range []string{"Error", "String"} {
		d, ok := rw.cellMethods[id.Name+"."+m]
		if !ok {
			if fd, isFunc := rw.it.funcs[id.Name+"."+m]; isFunc {
				d, ok = fd.decl, true
			}
		}
		if !ok || d.Recv == nil || len(flatFields(d.Type.Params)) != 0 {
			continue
		}
		if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); ptr {
			continue
		}
		if r := flatFields(d.Type.Results); len(r) == 1 && exprString(r[0]) == "string" {
			return m
		}
	}
	return ""
}

// basicFmtStrings returns, for a fmt argument whose static type is a slice,
// array or map of such a type (see basicFmtMethod), an expression giving
// what fmt should print: the elements' strings, or a map printer; nil
// otherwise.
func (rw *rewriter) basicFmtStrings(arg ast.Expr) ast.Expr {
	t := rw.astTypeOf(arg)
	var src string
	switch x := t.(type) {
	case *ast.ArrayType:
		m := rw.basicFmtMethod(x.Elt)
		if m == "" {
			return nil
		}
		src = fmt.Sprintf("func(x %s) []string { out := make([]string, len(x)); for i := range x { out[i] = x[i].%s() }; return out }", exprString(t), m)
	case *ast.MapType:
		km, vm := rw.basicFmtMethod(x.Key), rw.basicFmtMethod(x.Value)
		if km == "" && vm == "" {
			return nil
		}
		ks, vs := "fmt.Sprint(k)", "fmt.Sprint(v)"
		if km != "" {
			ks = "k." + km + "()"
		}
		if vm != "" {
			vs = "v." + vm + "()"
		}
		src = fmt.Sprintf("func(x %s) any { var ks []any; var kss, vss []string; for k, v := range x { kk := k; ks = append(ks, kk); kss = append(kss, %s); vss = append(vss, %s) }; return %s(ks, kss, vss) }", exprString(t), ks, vs, rtFunc(prelude.RTFmtMap))
	case *ast.Ident:
		if _, call := arg.(*ast.CallExpr); call {
			// yaegi hands fmt a call's result without its methods.
			for _, m := range []string{"Error", "String"} {
				if rw.valueMethod(x.Name, m) {
					src = fmt.Sprintf("func(x %s) any { return %s(x, x.%s()) }", x.Name, rtFunc(prelude.RTFmtAs), m)
					break
				}
			}
		}
		if src == "" {
			conv := rw.fmtStructSource(x, 0)
			if conv == "" {
				return nil
			}
			src = fmt.Sprintf("func(x %s) any { return %s }", x.Name, conv)
		}
	default:
		return nil
	}
	fn, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	atPos(fn, arg.Pos())
	return &ast.CallExpr{Fun: fn, Args: []ast.Expr{arg}, Lparen: arg.Pos(), Rparen: arg.End()}
}

// fmtStructSource returns, for a cell struct type t without an Error or
// String method of its own, an expression of x that fmt prints as it would
// print a value of t: its fields of types with such methods (a cell type's
// methods are invisible to fmt inside a struct) formatted through them. ""
// when fmt needs no help with t.
func (rw *rewriter) fmtStructSource(t *ast.Ident, depth int) string {
	if depth > 4 || rw.valueMethod(t.Name, "Error") || rw.valueMethod(t.Name, "String") {
		return ""
	}
	ts, ok := rw.cellType(t.Name)
	if !ok || ts.Assign.IsValid() {
		return ""
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return ""
	}
	var names, vals []string
	helped := false
	for _, f := range st.Fields.List {
		var fnames []string
		for _, n := range f.Names {
			fnames = append(fnames, n.Name)
		}
		if len(f.Names) == 0 {
			// An embedded type's Error or String is t's own (promoted).
			emb := recvTypeName(f.Type)
			for _, m := range []string{"Error", "String"} {
				if _, ok := rw.cellMethods[emb+"."+m]; ok {
					return ""
				}
				if rw.it != nil {
					if _, ok := rw.it.funcs[emb+"."+m]; ok {
						return ""
					}
				}
			}
			fnames = []string{emb}
		}
		for _, n := range fnames {
			v := "x." + n
			if id, ok := f.Type.(*ast.Ident); ok {
				if rw.valueMethod(id.Name, "Error") {
					v, helped = rtFunc(prelude.RTFmtAs)+"(x."+n+", x."+n+".Error())", true
				} else if rw.valueMethod(id.Name, "String") {
					v, helped = rtFunc(prelude.RTFmtAs)+"(x."+n+", x."+n+".String())", true
				} else if inner := rw.fmtStructSource(id, depth+1); inner != "" {
					v, helped = "func(x "+id.Name+") any { return "+inner+" }(x."+n+")", true
				}
			}
			names = append(names, strconv.Quote(n))
			vals = append(vals, v)
		}
	}
	if !helped {
		return ""
	}
	return fmt.Sprintf("%s(x, []string{%s}, []any{%s})", rtFunc(prelude.RTFmtStruct), strings.Join(names, ", "), strings.Join(vals, ", "))
}

// fmtHookActive: the session's fmt hook knows Stringer types (or will, once
// this cell's declarations are compiled).
func (rw *rewriter) fmtHookActive() bool {
	if rw.it.fmtHook != "" {
		return true
	}
	for k := range rw.cellMethods {
		if strings.HasSuffix(k, ".String") || strings.HasSuffix(k, ".Error") {
			return true
		}
	}
	return false
}

// method is a method of a cell type by "T.M", this cell's first.
func (rw *rewriter) method(key string) *ast.FuncDecl {
	if d, ok := rw.cellMethods[key]; ok {
		return d
	}
	if rw.it != nil {
		if fd, ok := rw.it.funcs[key]; ok && fd.decl.Recv != nil {
			return fd.decl
		}
	}
	return nil
}

// anyCellType finds a type declared in this cell or an earlier one,
// generic or not.
func (rw *rewriter) anyCellType(name string) (*ast.TypeSpec, bool) {
	if ts, ok := rw.cellTypes[name]; ok {
		return ts, true
	}
	if rw.it != nil {
		ts, ok := rw.it.types[name]
		return ts, ok
	}
	return nil, false
}

// rtFunc is a function of package grundyrt as source.
func rtFunc(name string) string { return prelude.Runtime + "." + name }

// valueMethod: whether the cell type named typ has a value-receiver method
// name() string.
func (rw *rewriter) valueMethod(typ, name string) bool {
	d, ok := rw.cellMethods[typ+"."+name]
	if !ok && rw.it != nil {
		if fd, isFunc := rw.it.funcs[typ+"."+name]; isFunc {
			d, ok = fd.decl, true
		}
	}
	if !ok || d.Recv == nil || len(flatFields(d.Type.Params)) != 0 {
		return false
	}
	if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); ptr {
		return false
	}
	r := flatFields(d.Type.Results)
	return len(r) == 1 && exprString(r[0]) == "string"
}

// hasMethods: whether t names a cell type with methods (which a display
// of its values may use: they are not to be replaced by what fmt prints).
func (rw *rewriter) hasMethods(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	if !ok {
		return false
	}
	for k := range rw.cellMethods {
		if strings.HasPrefix(k, id.Name+".") {
			return true
		}
	}
	if rw.it != nil {
		for k, fd := range rw.it.funcs {
			if fd.decl.Recv != nil && strings.HasPrefix(k, id.Name+".") {
				return true
			}
		}
	}
	return false
}

// pkgVars turns uses of a preloaded package's variables, pkg.Name, into
// *&pkg.Name: yaegi v0.16.1 compiles such a selector as a constant holding
// the variable's value when the cell was compiled, so "solve.Workers = 1"
// is refused as an assignment to a constant (traefik/yaegi#1623, #1632)
// and "solve.Workers + 0" reads a stale value; through the pointer both
// work. Reads are rewritten for variables of basic kinds, the ones yaegi
// folds; assignment targets for every variable. A name the cell or the
// session declares itself is a value, not the package, and is left alone.
func (rw *rewriter) pkgVars(root ast.Node) {
	if rw.it == nil {
		return
	}
	targets := map[*ast.SelectorExpr]bool{}
	addressed := map[*ast.SelectorExpr]bool{} // &pkg.Name needs no help
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if sel, ok := n.X.(*ast.SelectorExpr); ok && n.Op == token.AND {
				addressed[sel] = true
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok {
						targets[sel] = true
					}
				}
			}
		case *ast.IncDecStmt:
			if sel, ok := n.X.(*ast.SelectorExpr); ok {
				targets[sel] = true
			}
		}
		return true
	})
	replace := func(e ast.Expr) ast.Expr {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || addressed[sel] {
			return e
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return e
		}
		if obj := rw.types.ObjectOf(pkg); obj != nil {
			if _, isPkg := obj.(*types.PkgName); !isPkg {
				return e
			}
		} else if rw.isVar(pkg.Name) {
			return e // code the rewriter wrote: the name tells
		}
		v, ok := rw.it.packageVar(pkg.Name, sel.Sel.Name)
		if !ok || !targets[sel] && !isBasicKind(v.Kind()) {
			return e
		}
		return &ast.StarExpr{Star: sel.Pos(), X: &ast.UnaryExpr{OpPos: sel.Pos(), Op: token.AND, X: sel}}
	}
	replaceExprs(reflect.ValueOf(root), replace, map[uintptr]bool{})
}

func isBasicKind(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

var (
	exprType    = reflect.TypeFor[ast.Expr]()
	objectType  = reflect.TypeFor[*ast.Object]()
	scopeType   = reflect.TypeFor[*ast.Scope]()
	commentType = reflect.TypeFor[*ast.CommentGroup]()
)

// replaceExprs applies f to every expression held in a field or slice of
// the syntax tree under v (ast.Inspect cannot replace nodes).
func replaceExprs(v reflect.Value, f func(ast.Expr) ast.Expr, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			replaceExprs(v.Elem(), f, seen)
		}
	case reflect.Pointer:
		if v.IsNil() || v.Type() == objectType || v.Type() == scopeType || v.Type() == commentType || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		replaceExprs(v.Elem(), f, seen)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			replaceExprs(v.Index(i), f, seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fv := v.Field(i)
			if fv.Type() == exprType && !fv.IsNil() && fv.CanSet() {
				if e := f(fv.Interface().(ast.Expr)); e != fv.Interface() {
					fv.Set(reflect.ValueOf(e))
					continue
				}
			}
			if fv.Kind() == reflect.Slice && fv.Type().Elem() == exprType {
				for j := 0; j < fv.Len(); j++ {
					el := fv.Index(j)
					if !el.IsNil() {
						if e := f(el.Interface().(ast.Expr)); e != el.Interface() {
							el.Set(reflect.ValueOf(e))
							continue
						}
					}
					replaceExprs(el, f, seen)
				}
				continue
			}
			replaceExprs(fv, f, seen)
		}
	}
}

// packageVar: pkg.name is a variable, which the symbol tables export as
// an addressable value (constants and functions are not); v is its value.
func (it *Interp) packageVar(pkg, name string) (v reflect.Value, ok bool) {
	path, ok := it.pkgs[pkg]
	if !ok {
		return v, false
	}
	key, ok := symbolsHave(path)
	if !ok {
		return v, false
	}
	v, ok = lookupSymbol(key, name)
	return v, ok && v.IsValid() && v.CanAddr()
}
