package engine

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"grundy/engine/display"
)

// The rewriter brings a cell's syntax tree to what yaegi v0.16.1 runs
// correctly: range over integers, Go 1.22 per-iteration loop variables,
// goroutines that cannot crash the process, iterator idioms over maps and
// slices, and display calls that see the methods of cell-defined types.

type rewriter struct {
	it      *Interp
	ints    map[string]int    // name -> +1 declared with an integer type somewhere in the cell, -1 otherwise
	handles map[string]bool   // names the cell assigns display.New() to
	slices  map[string]bool   // names the cell assigns a slice literal to
	errs    map[string]string // names the cell declares as error ("error"), []error ("slice") or map[K]error ("map")
	tmp     int

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
	hideUnexportedFields(f)
	rw := newRewriter(it, f)
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
			rw.errorSpecs(d)
		}
	}
	for _, name := range sortedKeys(rw.insts) {
		f.Decls = append(f.Decls, rw.insts[name])
	}
	rw.pkgVars(f)
	return rw.err
}

// rewriteBlock rewrites a cell's statements; decls are the functions they
// need declared first.
func rewriteBlock(b *ast.BlockStmt, it *Interp) (decls []ast.Decl, err *EvalError) {
	hideUnexportedFields(b)
	rw := newRewriter(it, b)
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
	rw.pkgVars(b)
	for _, d := range decls {
		rw.pkgVars(d)
	}
	topLevelCommaOk(b)
	for i, s := range b.List {
		if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) > 1 {
			// yaegi declares "_" as a global variable here, after which
			// "_ = v" anywhere in the session means an assignment to it.
			for j, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
					rw.tmp++
					as.Lhs[j] = &ast.Ident{Name: "_grundyBlank" + itoa(rw.tmp), NamePos: id.Pos()}
				}
			}
		}
		if needsFuncScope(s) {
			b.List[i] = inFuncLit(s)
		}
	}
	return decls, nil
}

// hiddenTags keep encoders away from unexported fields of cell-defined
// structs, which yaegi v0.16.1 exports under the name "X"+name (reflect
// cannot set unexported fields): without them encoding/json would write
// {"Xsecret": ...}. The first key of a tag is the one reflect finds.
const hiddenTags = `json:"-" xml:"-" `

func hideUnexportedFields(root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil {
			return true
		}
		var list []*ast.Field
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 {
				list = append(list, f) // embedded: it promotes its fields
				continue
			}
			// "A, b int": one field per name, so that only b is hidden.
			for _, name := range f.Names {
				g := &ast.Field{Doc: f.Doc, Names: []*ast.Ident{name}, Type: f.Type, Tag: f.Tag, Comment: f.Comment}
				if len(f.Names) == 1 {
					g = f
				}
				if !ast.IsExported(name.Name) && name.Name != "_" {
					hideField(g)
				}
				list = append(list, g)
			}
		}
		st.Fields.List = list
		return true
	})
}

// withoutHiddenTags is a type's source as the cell wrote it (for inspect).
func withoutHiddenTags(src string) string {
	q := strconv.Quote(hiddenTags)
	src = strings.ReplaceAll(src, " "+q, "")
	src = strings.ReplaceAll(src, "\t"+q, "")
	return strings.ReplaceAll(src, q[:len(q)-1], `"`)
}

func hideField(f *ast.Field) {
	tag := ""
	if f.Tag != nil {
		if t, err := strconv.Unquote(f.Tag.Value); err == nil {
			tag = t
		}
	}
	if strings.HasPrefix(tag, hiddenTags) {
		return
	}
	f.Tag = &ast.BasicLit{ValuePos: f.Type.End(), Kind: token.STRING, Value: strconv.Quote(hiddenTags + tag)}
}

// needsFuncScope: a top-level compound statement declaring, in a nested
// scope, what yaegi v0.16.1 only declares in a function or at package level
// ("a, b := f()", "var a, b = f()", local types and constants, the
// variable of a type switch): in the
// global scope its compiler leaves them to the package-level pass, which
// skips nested blocks, so they end up undefined. Such a statement runs as
// the body of a function literal instead, unless it jumps (goto) or defers,
// which a function would change the meaning of.
func needsFuncScope(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
	default:
		return false
	}
	needs, blocked := false, false
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) > 1 && len(x.Rhs) == 1 {
				needs = true
			}
		case *ast.TypeSwitchStmt:
			if _, binds := x.Assign.(*ast.AssignStmt); binds {
				needs = true // switch v := x.(type) crashes yaegi's compiler here
			}
		case *ast.GenDecl:
			switch x.Tok {
			case token.TYPE, token.CONST:
				needs = true
			case token.VAR:
				for _, sp := range x.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) > 1 && len(vs.Values) == 1 {
						needs = true
					}
				}
			}
		case *ast.DeferStmt:
			blocked = true
		case *ast.BranchStmt:
			if x.Tok == token.GOTO {
				blocked = true
			}
		}
		return !blocked
	})
	return needs && !blocked
}

// inFuncLit wraps s as func() { s }().
func inFuncLit(s ast.Stmt) ast.Stmt {
	pos := s.Pos()
	return &ast.ExprStmt{X: &ast.CallExpr{
		Fun: &ast.FuncLit{
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{s}, Rbrace: s.End()},
		},
		Lparen: s.End(), Rparen: s.End(),
	}}
}

// topLevelCommaOk rewrites "v, ok := m[k]" and "v, ok := x.(T)" among a
// cell's top-level statements, which yaegi v0.16.1 cannot compile in the
// global scope, into forms it can: the ok is computed in a function
// literal, the value separately.
func topLevelCommaOk(b *ast.BlockStmt) {
	var out []ast.Stmt
	for _, s := range b.List {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			out = append(out, s)
			continue
		}
		val, _ := as.Lhs[0].(*ast.Ident)
		okID, _ := as.Lhs[1].(*ast.Ident)
		if val == nil || okID == nil {
			out = append(out, s)
			continue
		}
		pos := as.Pos()
		okFunc := &ast.CallExpr{Fun: &ast.FuncLit{
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("bool")}}}},
			Body: &ast.BlockStmt{List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_"), ast.NewIdent("_grundyOK")}, Tok: token.DEFINE, Rhs: as.Rhs, TokPos: pos},
				&ast.ReturnStmt{Results: []ast.Expr{ast.NewIdent("_grundyOK")}},
			}},
		}}
		okName := okID.Name
		if okName == "_" {
			okName = "_grundyOKv"
		}
		switch x := as.Rhs[0].(type) {
		case *ast.IndexExpr:
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: okName, NamePos: okID.Pos()}}, Tok: token.DEFINE, Rhs: []ast.Expr{okFunc}, TokPos: pos})
			if val.Name != "_" {
				out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{val}, Tok: token.DEFINE, Rhs: []ast.Expr{x}, TokPos: pos})
			}
		case *ast.TypeAssertExpr:
			if x.Type == nil {
				out = append(out, s)
				continue
			}
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: okName, NamePos: okID.Pos()}}, Tok: token.DEFINE, Rhs: []ast.Expr{okFunc}, TokPos: pos})
			if val.Name != "_" {
				out = append(out,
					&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{val}, Type: x.Type}}}},
					&ast.IfStmt{If: pos, Cond: ast.NewIdent(okName), Body: &ast.BlockStmt{List: []ast.Stmt{
						&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(val.Name)}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.TypeAssertExpr{X: x.X, Type: x.Type}}, TokPos: pos},
					}}})
			}
		default:
			out = append(out, s)
		}
	}
	b.List = out
}

func newRewriter(it *Interp, root ast.Node) *rewriter {
	rw := &rewriter{it: it, ints: map[string]int{}, handles: map[string]bool{}, slices: map[string]bool{}, errs: map[string]string{},
		locals: map[string]reflect.Type{}, localAST: map[string]ast.Expr{}, cellFuncs: map[string]*ast.FuncDecl{},
		cellTypes: map[string]*ast.TypeSpec{}, cellMethods: map[string]*ast.FuncDecl{}, insts: map[string]*ast.FuncDecl{}}
	rw.collectInts(root)
	ast.Inspect(root, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				id, ok := as.Lhs[i].(*ast.Ident)
				if !ok {
					continue
				}
				if isDisplayNew(r) {
					rw.handles[id.Name] = true
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
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
			for i, r := range vs.Values {
				if isDisplayNew(r) {
					rw.handles[vs.Names[i].Name] = true
				}
			}
		}
		return true
	})
	return rw
}

// collectInts notes the integer-typed names declared in the cell.
func (rw *rewriter) collectInts(root ast.Node) {
	mark := func(name string, isInt bool) {
		if name == "_" {
			return
		}
		v := -1
		if isInt {
			v = 1
		}
		if old, ok := rw.ints[name]; ok && old != v {
			v = -1 // conflicting declarations: unknown
		}
		rw.ints[name] = v
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				mark(id.Name, isIntTypeExpr(n.Type))
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if n.Type != nil {
					mark(id.Name, isIntTypeExpr(n.Type))
				} else if i < len(n.Values) && len(n.Values) == len(n.Names) {
					mark(id.Name, rw.syntacticInt(n.Values[i]))
				} else {
					mark(id.Name, false)
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for i, l := range n.Lhs {
					id, ok := l.(*ast.Ident)
					if !ok {
						continue
					}
					if len(n.Rhs) == len(n.Lhs) {
						mark(id.Name, rw.syntacticInt(n.Rhs[i]))
					} else {
						mark(id.Name, false)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				if id, ok := n.Key.(*ast.Ident); ok {
					mark(id.Name, rw.isIntExpr(n.X) || isIndexedRange(n.X))
				}
				if id, ok := n.Value.(*ast.Ident); ok {
					mark(id.Name, false)
				}
			}
		}
		return true
	})
}

// isIndexedRange: ranging over a slice, array or string gives int keys;
// the key of a map range is unknown. Only literal forms are recognised.
func isIndexedRange(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CompositeLit:
		_, isArr := x.Type.(*ast.ArrayType)
		return isArr
	case *ast.BasicLit:
		return x.Kind == token.STRING
	}
	return false
}

var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

func isIntTypeExpr(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && intTypes[id.Name]
}

// syntacticInt: an expression that is an integer by its form alone.
func (rw *rewriter) syntacticInt(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT
	case *ast.ParenExpr:
		return rw.syntacticInt(x.X)
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			if id.Name == "len" || id.Name == "cap" || intTypes[id.Name] {
				return true
			}
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.SHL, token.SHR:
			return rw.syntacticInt(x.X)
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return rw.syntacticInt(x.X) && rw.syntacticInt(x.Y) ||
				rw.syntacticInt(x.X) && rw.isIntExpr(x.Y) || rw.isIntExpr(x.X) && rw.syntacticInt(x.Y)
		}
	case *ast.UnaryExpr:
		if x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR {
			return rw.syntacticInt(x.X)
		}
	}
	return false
}

// isIntExpr: an expression known to be an integer, by its form, by the
// cell's declarations or by the live session's globals.
func (rw *rewriter) isIntExpr(e ast.Expr) bool {
	if rw.syntacticInt(e) {
		return true
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return rw.isIntExpr(x.X)
	case *ast.Ident:
		if v, ok := rw.ints[x.Name]; ok {
			return v > 0
		}
		return rw.it != nil && rw.it.globalIsInt(x.Name)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return rw.isIntExpr(x.X) && rw.isIntExpr(x.Y)
		case token.SHL, token.SHR:
			return rw.isIntExpr(x.X)
		}
	case *ast.SelectorExpr:
		// A package constant or variable: pkg.Name.
		if pkg, ok := x.X.(*ast.Ident); ok && rw.it != nil {
			return rw.it.packageMemberIsInt(pkg.Name, x.Sel.Name)
		}
	}
	return false
}

func (it *Interp) globalIsInt(name string) bool {
	v, ok := it.globalValues()[name]
	if !ok || !v.IsValid() {
		return false
	}
	if cv, ok := v.Interface().(constant.Value); ok {
		return cv.Kind() == constant.Int
	}
	return isIntKind(v.Kind())
}

func (it *Interp) packageMemberIsInt(pkg, name string) bool {
	path, ok := it.pkgs[pkg]
	if !ok {
		return false
	}
	key, ok := symbolsHave(path)
	if !ok {
		return false
	}
	v, ok := lookupSymbol(key, name)
	if !ok {
		return false
	}
	if cv, ok := v.Interface().(constant.Value); ok {
		return cv.Kind() == constant.Int
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() != reflect.Pointer {
		// Variables are exported as pointers.
		return isIntKind(v.Type().Elem().Kind())
	}
	return isIntKind(v.Kind())
}

func isIntKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uintptr
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
		rw.perIterationFor(s)
	case *ast.RangeStmt:
		rw.exprsIn(s.X)
		rw.noteRangeVars(s)
		rw.block(s.Body)
		return rw.rangeStmt(s, "")
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
		if out, ok := rw.errorTypeSwitch(s); ok {
			return out
		}
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
		if r, ok := s.Stmt.(*ast.RangeStmt); ok {
			rw.exprsIn(r.X)
			rw.noteRangeVars(r)
			rw.block(r.Body)
			if out, ok := rw.rangeFuncStmt(r, s.Label.Name); ok {
				// Its label's jumps were rewritten with it.
				return out
			}
			s.Stmt = rw.rangeStmt(r, s.Label.Name)
			return s
		}
		s.Stmt = rw.stmt(s.Stmt)
	case *ast.GoStmt:
		rw.exprsIn(s.Call)
		return rw.goStmt(s)
	case *ast.DeferStmt:
		rw.exprsIn(s.Call)
		if len(rw.fnStack) == 0 {
			return rw.cellDefer(s)
		}
	case *ast.ExprStmt:
		rw.exprsIn(s.X)
	case *ast.AssignStmt:
		for i, e := range s.Rhs {
			if lit, ok := rw.methodExpr(e); ok {
				s.Rhs[i] = lit
			}
			rw.exprsIn(s.Rhs[i])
		}
		if s.Tok == token.ASSIGN && len(s.Lhs) == len(s.Rhs) {
			for i, l := range s.Lhs {
				if rw.isErrorExpr(l) {
					s.Rhs[i] = rw.toError(s.Rhs[i])
				}
			}
		}
		if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
			// v, ok := x.(error): yaegi's assertion from an interface
			// holding a cell type to error fails.
			if ta, ok := s.Rhs[0].(*ast.TypeAssertExpr); ok && ta.Type != nil && isErrorIdent(ta.Type) && !rw.isErrorExpr(ta.X) {
				s.Rhs[0] = &ast.CallExpr{Fun: &ast.Ident{Name: "_grundyErrorAssert", NamePos: ta.Pos()}, Args: []ast.Expr{ta.X}, Lparen: ta.Lparen, Rparen: ta.Rparen}
			}
		}
		rw.noteDefine(s)
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			rw.exprsIn(e)
		}
		rw.errorResults(s)
	case *ast.DeclStmt:
		rw.exprsIn(s.Decl)
		rw.errorSpecs(s.Decl)
		rw.noteDefine(s)
	case *ast.SendStmt:
		rw.exprsIn(s.Value)
		if ct, ok := rw.astTypeOf(s.Chan).(*ast.ChanType); ok && isErrorIdent(ct.Value) {
			s.Value = rw.toError(s.Value)
		}
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
		case *ast.BinaryExpr:
			rw.errorComparison(x)
		case *ast.TypeAssertExpr:
			rw.lostStructAssert(x)
		case *ast.CallExpr:
			rw.call(x)
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "append" && len(x.Args) > 1 && !x.Ellipsis.IsValid() && rw.errorVarKind(x.Args[0]) == "slice" {
				for i := 1; i < len(x.Args); i++ {
					x.Args[i] = asError(x.Args[i])
				}
			}
		case *ast.CompositeLit:
			rw.errorFields(x)
			if x.Type != nil && holdsErrors(x.Type) {
				for i, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						kv.Value = asError(kv.Value)
					} else {
						x.Elts[i] = asError(el)
					}
				}
			}
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
		if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "_grundyAsError" {
			return e
		}
	}
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return e
	}
	return &ast.CallExpr{Fun: &ast.Ident{Name: "_grundyAsError", NamePos: e.Pos()}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
}

// call rewrites display.Show/Render to the interpreted helpers, and puts a
// typed argument first in min/max so yaegi infers the right type.
func (rw *rewriter) call(c *ast.CallExpr) {
	if rw.iterAdapter(c) {
		return
	}
	for i, a := range c.Args {
		if lit, ok := rw.methodExpr(a); ok {
			c.Args[i] = lit
		}
	}
	if lit, ok := rw.methodExpr(c.Fun); ok {
		c.Fun = lit
	}
	rw.checkSpread(c)
	rw.iteratorArgs(c)
	rw.errorArgs(c)
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && sel.Sel.Name == "Errorf" && len(c.Args) > 1 && !c.Ellipsis.IsValid() {
			// An argument reaches native Errorf as a plain value, so
			// %w would not see that a cell type is an error: convert
			// the arguments of %w verbs.
			for _, i := range wrapVerbArgs(c.Args[0]) {
				if i+1 < len(c.Args) {
					c.Args[i+1] = asError(c.Args[i+1])
				}
			}
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && c.Ellipsis.IsValid() && rw.it.pkgs["fmt"] == "fmt" {
			if skip, ok := fmtArgStart[sel.Sel.Name]; ok && len(c.Args) == skip+1 {
				last := c.Args[skip]
				c.Args[skip] = &ast.CallExpr{Fun: &ast.Ident{Name: "_grundyFmtSpread", NamePos: last.Pos()}, Args: []ast.Expr{last}, Lparen: last.Pos(), Rparen: last.End()}
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
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && rw.it.fmtHook != "" && !c.Ellipsis.IsValid() {
			if skip, ok := fmtArgStart[sel.Sel.Name]; ok {
				// Only slices: other values keep their static type, which
				// is how yaegi lets fmt see their String method.
				for i := skip; i < len(c.Args); i++ {
					if rw.isSliceArg(c.Args[i]) {
						c.Args[i] = &ast.CallExpr{Fun: &ast.Ident{Name: "_grundyFmtArg", NamePos: c.Args[i].Pos()}, Args: []ast.Expr{c.Args[i]}}
					}
				}
			}
			return
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "errors" && (sel.Sel.Name == "As" || sel.Sel.Name == "Is") && rw.it.pkgs["errors"] == "errors" {
			sel.X = &ast.Ident{Name: "grundyrt", NamePos: pkg.Pos()}
			sel.Sel = &ast.Ident{Name: "Errors" + sel.Sel.Name, NamePos: sel.Sel.Pos()}
			if len(c.Args) == 2 && !c.Ellipsis.IsValid() {
				c.Args[0] = asError(c.Args[0])
				if sel.Sel.Name == "ErrorsIs" {
					c.Args[1] = asError(c.Args[1])
				}
			}
			return
		}
		// h.Update(v) on a display handle: render v here, where the
		// methods of cell-defined types are visible.
		if recv, ok := sel.X.(*ast.Ident); ok && sel.Sel.Name == "Update" && len(c.Args) == 1 && rw.isHandle(recv.Name) {
			c.Args[0] = &ast.CallExpr{Fun: &ast.Ident{Name: "_grundyRender", NamePos: c.Args[0].Pos()}, Args: []ast.Expr{c.Args[0]}}
			return
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && rw.locals != nil && aliasPackages[rw.it.pkgs[pkg.Name]] && !rw.isVar(pkg.Name) {
			if fd := pkgGeneric(rw.it.pkgs[pkg.Name], sel.Sel.Name); fd != nil {
				back := rw.nativeNamedArgs(c, fd)
				rw.instantiateOpt(c, fd, true)
				if back != nil && len(rw.fnStack) > 0 {
					// (At top level the conversion back trips yaegi's
					// capture of generic results: the value stays a plain
					// slice or map there.)
					wrapCall(c, back)
				}
			}
			return
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "display" && rw.it.pkgs["display"] == "grundy/engine/display" {
			switch sel.Sel.Name {
			case "Show":
				c.Fun = &ast.Ident{Name: "_grundyDisplay", NamePos: sel.Pos()}
			case "Render":
				c.Fun = &ast.Ident{Name: "_grundyRender", NamePos: sel.Pos()}
			}
		}
		return
	}
	if ix, isIx := c.Fun.(*ast.IndexExpr); isIx && rw.it != nil {
		if gid, ok := ix.X.(*ast.Ident); ok {
			if d := rw.cellFunc(gid.Name); d != nil && d.Type.TypeParams != nil && rw.monomorphize(c, d, []ast.Expr{ix.Index}) {
				return
			}
		}
	}
	if il, isIl := c.Fun.(*ast.IndexListExpr); isIl && rw.it != nil {
		if gid, ok := il.X.(*ast.Ident); ok {
			if d := rw.cellFunc(gid.Name); d != nil && d.Type.TypeParams != nil && rw.monomorphize(c, d, il.Indices) {
				return
			}
		}
	}
	id, ok := c.Fun.(*ast.Ident)
	if ok && rw.it != nil {
		if fd, isFunc := rw.it.funcs[id.Name]; isFunc && fd.decl.Recv == nil && fd.decl.Type.TypeParams != nil {
			rw.instantiate(c, fd.decl)
			return
		}
	}
	if !ok || (id.Name != "min" && id.Name != "max") || len(c.Args) < 2 {
		return
	}
	if !isConstLit(c.Args[0]) {
		return
	}
	for i := 1; i < len(c.Args); i++ {
		if !isConstLit(c.Args[i]) {
			c.Args[0], c.Args[i] = c.Args[i], c.Args[0]
			return
		}
	}
	// All constants: give the first the type Go would give the result.
	typ := "int"
	for _, a := range c.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok {
				switch bl.Kind {
				case token.FLOAT:
					typ = "float64"
				case token.STRING:
					typ = "string"
				case token.CHAR:
					if typ == "int" {
						typ = "rune"
					}
				}
			}
			return true
		})
	}
	c.Args[0] = &ast.CallExpr{Fun: &ast.Ident{Name: typ, NamePos: c.Args[0].Pos()}, Args: []ast.Expr{c.Args[0]}, Lparen: c.Args[0].Pos(), Rparen: c.Args[0].End()}
}

// methodExpr turns a method expression on a cell-defined type, T.M or
// (*T).M, into the equivalent function literal: yaegi v0.16.1 calls it
// with the wrong number of arguments.
func (rw *rewriter) methodExpr(e ast.Expr) (ast.Expr, bool) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || rw.it == nil {
		return nil, false
	}
	var recvType ast.Expr
	name := ""
	switch x := sel.X.(type) {
	case *ast.Ident:
		name, recvType = x.Name, ast.NewIdent(x.Name)
	case *ast.ParenExpr:
		if st, ok := x.X.(*ast.StarExpr); ok {
			if id, ok := st.X.(*ast.Ident); ok {
				name, recvType = id.Name, &ast.StarExpr{X: ast.NewIdent(id.Name)}
			}
		}
	}
	if name == "" {
		return nil, false
	}
	if _, isType := rw.it.types[name]; !isType {
		return nil, false
	}
	fd, ok := rw.it.funcs[name+"."+sel.Sel.Name]
	if !ok || fd.decl.Recv == nil {
		return nil, false
	}
	ft := fd.decl.Type
	params := []*ast.Field{{Names: []*ast.Ident{ast.NewIdent("_grundyRecv")}, Type: recvType}}
	var args []ast.Expr
	variadic := false
	for i, f := range flatFields(ft.Params) {
		pname := "_grundyP" + itoa(i)
		params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(pname)}, Type: f})
		args = append(args, ast.NewIdent(pname))
		_, variadic = f.(*ast.Ellipsis)
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent("_grundyRecv"), Sel: ast.NewIdent(sel.Sel.Name)}, Args: args}
	if variadic {
		call.Ellipsis = sel.Pos()
	}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if ft.Results != nil && len(ft.Results.List) > 0 {
		body = &ast.ReturnStmt{Results: []ast.Expr{call}}
	}
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: sel.Pos(), Params: &ast.FieldList{List: params}, Results: ft.Results},
		Body: &ast.BlockStmt{List: []ast.Stmt{body}},
	}, true
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

func isDisplayNew(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "display" && sel.Sel.Name == "New"
}

var handleType = reflect.TypeOf((*display.Handle)(nil))

// isHandle: name holds a *display.Handle, by the cell's text or the live
// session.
func (rw *rewriter) isHandle(name string) bool {
	if rw.handles[name] {
		return true
	}
	if rw.it == nil {
		return false
	}
	v, ok := rw.it.globalValues()[name]
	return ok && v.IsValid() && v.Type() == handleType
}

func isConstLit(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return isConstLit(x.X)
	case *ast.ParenExpr:
		return isConstLit(x.X)
	}
	return false
}

// rangeStmt handles range over an integer, over a function iterator and
// the iterator idioms; label is the loop's label, if any.
func (rw *rewriter) rangeStmt(s *ast.RangeStmt, label string) ast.Stmt {
	if isSeqCall(s.X) && s.Key != nil && s.Value == nil {
		// for k := range maps.Keys(m): the helper returns a slice.
		s.Value = s.Key
		s.Key = &ast.Ident{Name: "_", NamePos: s.Key.Pos()}
	}
	if out, ok := rw.rangeFuncStmt(s, label); ok {
		return out
	}
	if rw.isIntExpr(s.X) && s.Value == nil && (s.Key == nil || s.Tok == token.DEFINE) {
		return rw.rangeInt(s)
	}
	rw.perIterationRange(s)
	return s
}

// rangeFuncStmt rewrites s when it ranges over a function iterator.
func (rw *rewriter) rangeFuncStmt(s *ast.RangeStmt, label string) (ast.Stmt, bool) {
	if rw.it == nil || rw.locals == nil || isSeqCall(s.X) {
		return s, false
	}
	elems, ok, why := rw.iterElems(s.X)
	if !ok {
		return s, false
	}
	if why != "" {
		rw.fail(s.X.Pos(), why)
		return s, true
	}
	return rw.rangeFunc(s, label, elems), true
}

func isSeqCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := unindex(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	switch pkg.Name + "." + sel.Sel.Name {
	case "maps.Keys", "maps.Values", "slices.Values", "slices.Sorted", "slices.Collect", "slices.Chunk":
		return true
	}
	return false
}

// rangeInt turns "for i := range n" into a counting loop; i has n's type
// and n is evaluated once, as in Go 1.22.
func (rw *rewriter) rangeInt(s *ast.RangeStmt) ast.Stmt {
	pos := s.For
	rw.tmp++
	limit := &ast.Ident{Name: "_grundyN" + itoa(rw.tmp), NamePos: pos}
	var key *ast.Ident
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		key = &ast.Ident{Name: id.Name, NamePos: id.Pos()}
	} else {
		key = &ast.Ident{Name: "_grundyI" + itoa(rw.tmp), NamePos: pos}
	}
	zero := &ast.BinaryExpr{X: cloneIdentOrParen(limit), Op: token.SUB, Y: cloneIdentOrParen(limit), OpPos: pos}
	init := &ast.AssignStmt{
		Lhs:    []ast.Expr{limit},
		Tok:    token.DEFINE,
		Rhs:    []ast.Expr{s.X},
		TokPos: pos,
	}
	loop := &ast.ForStmt{
		For:  pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{key}, Tok: token.DEFINE, Rhs: []ast.Expr{zero}, TokPos: pos},
		Cond: &ast.BinaryExpr{X: ast.NewIdent(key.Name), Op: token.LSS, Y: ast.NewIdent(limit.Name), OpPos: pos},
		Post: &ast.IncDecStmt{X: ast.NewIdent(key.Name), Tok: token.INC, TokPos: pos},
		Body: s.Body,
	}
	rw.perIterationFor(loop)
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{init, loop}, Rbrace: s.End() - 1}
}

func cloneIdentOrParen(id *ast.Ident) ast.Expr { return ast.NewIdent(id.Name) }

// perIterationRange gives each iteration its own key and value when the
// body has closures or goroutines that could capture them (Go 1.22). The
// loop runs on hidden variables and the body declares the real ones: yaegi
// allocates variables declared directly in a loop body per iteration, but
// mishandles "v := v".
func (rw *rewriter) perIterationRange(s *ast.RangeStmt) {
	if s.Tok != token.DEFINE || !capturesIn(s.Body) {
		return
	}
	var names, temps []string
	for _, e := range []*ast.Expr{&s.Key, &s.Value} {
		if id, ok := (*e).(*ast.Ident); ok && id.Name != "_" {
			rw.tmp++
			t := "_grundyL" + itoa(rw.tmp)
			names = append(names, id.Name)
			temps = append(temps, t)
			*e = &ast.Ident{Name: t, NamePos: id.Pos()}
		}
	}
	prependCopies(s.Body, names, temps)
}

// perIterationFor does the same for a three-clause loop whose body does
// not assign the loop variables itself.
func (rw *rewriter) perIterationFor(s *ast.ForStmt) {
	as, ok := s.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || !capturesIn(s.Body) {
		return
	}
	var names, temps []string
	rename := map[string]string{}
	for i, e := range as.Lhs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" && !assigns(s.Body, id.Name) {
			rw.tmp++
			t := "_grundyL" + itoa(rw.tmp)
			names = append(names, id.Name)
			temps = append(temps, t)
			rename[id.Name] = t
			as.Lhs[i] = &ast.Ident{Name: t, NamePos: id.Pos()}
		}
	}
	if len(names) == 0 {
		return
	}
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if t, ok := rename[id.Name]; ok {
					id.Name = t
				}
			}
			return true
		})
	}
	prependCopies(s.Body, names, temps)
}

func prependCopies(body *ast.BlockStmt, names, temps []string) {
	if len(names) == 0 {
		return
	}
	var lhs, rhs []ast.Expr
	for i, n := range names {
		lhs = append(lhs, ast.NewIdent(n))
		rhs = append(rhs, ast.NewIdent(temps[i]))
	}
	// (No "_ = v" to mark them used: yaegi does not require it, and
	// mishandles it for struct values in the global scope.)
	cp := &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: body.Lbrace}
	body.List = append([]ast.Stmt{cp}, body.List...)
}

func capturesIn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

func assigns(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						found = true
					}
				}
			}
		case *ast.IncDecStmt:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := x.X.(*ast.Ident); ok && x.Op == token.AND && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

var builtinNames = map[string]bool{"append": true, "cap": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true}

// goStmt wraps a goroutine so a panic in it is reported instead of
// killing the process. Function and arguments are evaluated before the
// goroutine starts, as Go does.
func (rw *rewriter) goStmt(s *ast.GoStmt) ast.Stmt {
	call := s.Call
	if id, ok := call.Fun.(*ast.Ident); ok && builtinNames[id.Name] {
		return s
	}
	pos := s.Go
	rw.tmp++
	n := itoa(rw.tmp)
	fn := ast.NewIdent("_grundyF" + n)
	lhs := []ast.Expr{fn}
	rhs := []ast.Expr{call.Fun}
	var args []ast.Expr
	for i, a := range call.Args {
		id := ast.NewIdent("_grundyA" + n + "_" + itoa(i))
		lhs = append(lhs, id)
		rhs = append(rhs, a)
		args = append(args, ast.NewIdent(id.Name))
	}
	recoverer := &ast.DeferStmt{Defer: pos, Call: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.IfStmt{
			Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("r")}, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.CallExpr{Fun: ast.NewIdent("recover")}}},
			Cond: &ast.BinaryExpr{X: ast.NewIdent("r"), Op: token.NEQ, Y: ast.NewIdent("nil")},
			Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
				Fun: ast.NewIdent(goRecover), Args: []ast.Expr{ast.NewIdent("r")}}}}},
		}}},
	}}}
	inner := &ast.CallExpr{Fun: ast.NewIdent(fn.Name), Args: args, Ellipsis: call.Ellipsis, Lparen: call.Lparen, Rparen: call.Rparen}
	if call.Ellipsis == token.NoPos {
		inner.Ellipsis = token.NoPos
	}
	gofn := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{recoverer, &ast.ExprStmt{X: inner}}},
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: pos},
		&ast.GoStmt{Go: pos, Call: &ast.CallExpr{Fun: gofn, Lparen: call.Lparen, Rparen: call.Rparen}},
	}, Rbrace: s.End()}
}

// seqAdapters: the engine's slices and maps functions that return a slice
// or map standing for an iterator, and the real iterator for each.
var seqAdapters = map[string]string{
	"slices.Values": "GrundySliceValues", "slices.All": "GrundySliceAll",
	"maps.Keys": "GrundyMapKeys", "maps.Values": "GrundyMapValues", "maps.All": "GrundyMapAll",
}

// iteratorArgs: slices.Values(x) and the like, passed to a cell function's
// parameter of iterator type (iter.Seq[T], func(yield func(T) bool)),
// become real iterators.
func (rw *rewriter) iteratorArgs(c *ast.CallExpr) {
	if rw.it == nil {
		return
	}
	var fd *ast.FuncDecl
	switch f := unindex(c.Fun).(type) {
	case *ast.Ident:
		fd = rw.cellFunc(f.Name)
	case *ast.SelectorExpr:
		// The engine's own iter, slices and maps functions, too.
		if pkg, ok := f.X.(*ast.Ident); ok && !rw.isVar(pkg.Name) && aliasPackages[rw.it.pkgs[pkg.Name]] {
			fd = pkgGeneric(rw.it.pkgs[pkg.Name], f.Sel.Name)
		}
	}
	if fd == nil {
		return
	}
	params := flatFields(fd.Type.Params)
	for i, a := range c.Args {
		if len(params) == 0 {
			return
		}
		p := params[min(i, len(params)-1)]
		if el, ok := p.(*ast.Ellipsis); ok && i >= len(params)-1 {
			p = el.Elt
		}
		if !isIteratorType(p) {
			continue
		}
		ac, ok := a.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := ac.Fun.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || rw.isVar(pkg.Name) {
			continue
		}
		path := rw.it.pkgs[pkg.Name]
		if !aliasPackages[path] {
			continue
		}
		if name, ok := seqAdapters[path+"."+sel.Sel.Name]; ok {
			ac.Fun = &ast.SelectorExpr{X: &ast.Ident{Name: "iter", NamePos: sel.Pos()}, Sel: &ast.Ident{Name: name, NamePos: sel.Sel.Pos()}}
		}
	}
}

// isIteratorType: iter.Seq[...], iter.Seq2[...] or func(yield func(...) bool).
func isIteratorType(t ast.Expr) bool {
	switch x := t.(type) {
	case *ast.IndexExpr:
		return isIteratorType(x.X)
	case *ast.IndexListExpr:
		return isIteratorType(x.X)
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		return ok && pkg.Name == "iter" && (x.Sel.Name == "Seq" || x.Sel.Name == "Seq2")
	case *ast.FuncType:
		ps := flatFields(x.Params)
		if len(ps) != 1 || x.Results != nil && len(x.Results.List) > 0 {
			return false
		}
		_, ok := ps[0].(*ast.FuncType)
		return ok
	}
	return false
}

// cellDefer rewrites a defer among a cell's top-level statements. yaegi
// v0.16.1 keeps such defers on its global frame and runs them again at the
// end of every later program, so a cell's "defer cancel()" would repeat in
// every cell after it. The engine runs them instead, once, when the cell
// ends: the function and its arguments are evaluated here, as defer does,
// and recover() in a deferred function literal sees the cell's panic.
func (rw *rewriter) cellDefer(s *ast.DeferStmt) ast.Stmt {
	call := s.Call
	pos := s.Defer
	rw.tmp++
	n := itoa(rw.tmp)
	var lhs, rhs []ast.Expr
	fun := call.Fun
	if id, ok := fun.(*ast.Ident); !ok || !builtinNames[id.Name] {
		if lit, ok := fun.(*ast.FuncLit); ok {
			replaceRecover(lit.Body)
		}
		fn := ast.NewIdent("_grundyDF" + n)
		lhs = append(lhs, fn)
		rhs = append(rhs, fun)
		fun = ast.NewIdent(fn.Name)
	}
	var args []ast.Expr
	for i, a := range call.Args {
		id := ast.NewIdent("_grundyDA" + n + "_" + itoa(i))
		lhs = append(lhs, id)
		rhs = append(rhs, a)
		args = append(args, ast.NewIdent(id.Name))
	}
	inner := &ast.CallExpr{Fun: fun, Args: args, Ellipsis: call.Ellipsis, Lparen: call.Lparen, Rparen: call.Rparen}
	reg := &ast.ExprStmt{X: &ast.CallExpr{Fun: ast.NewIdent(deferFunc), Lparen: pos, Rparen: s.End(), Args: []ast.Expr{&ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: inner}}, Rbrace: s.End()},
	}}}}
	list := []ast.Stmt{reg}
	if len(lhs) > 0 {
		list = append([]ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: pos}}, list...)
	}
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()}
}

// replaceRecover makes recover() in a deferred function literal of a cell
// (not in functions nested in it) ask the engine for the cell's panic.
func replaceRecover(b *ast.BlockStmt) {
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "recover" && len(x.Args) == 0 {
				id.Name = recoverFunc
			}
		}
		return true
	})
}

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

// checkStatements reports, in Go's words, mistakes yaegi would only
// stumble on.
func checkStatements(b *ast.BlockStmt, fset *token.FileSet) *EvalError {
	var bad *EvalError
	fail := func(pos token.Pos, msg string) {
		if bad == nil {
			m := fmt.Sprintf("%s: %s", fset.Position(pos), msg)
			bad = &EvalError{Name: "CompileError", Value: m, Traceback: []string{m}}
		}
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			fail(x.Pos(), "return outside a function: a cell's statements run at top level")
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && len(x.Lhs) > 1 {
				switch x.Rhs[0].(type) {
				case *ast.CallExpr, *ast.IndexExpr, *ast.TypeAssertExpr, *ast.UnaryExpr:
				default:
					fail(x.Pos(), fmt.Sprintf("assignment mismatch: %d variables but 1 value", len(x.Lhs)))
				}
			} else if len(x.Rhs) > 1 && len(x.Lhs) != len(x.Rhs) {
				fail(x.Pos(), fmt.Sprintf("assignment mismatch: %d variables but %d values", len(x.Lhs), len(x.Rhs)))
			}
		}
		return bad == nil
	})
	return bad
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

// convertRanges turns every remaining range without a value variable over
// an expression of unknown type into a counting loop (the retry after the
// interpreter failed on a range over an integer it could not type).
func convertRanges(n ast.Node, rw *rewriter) bool {
	changed := false
	fix := func(list []ast.Stmt) {
		for i, s := range list {
			target := s
			lbl, isLbl := s.(*ast.LabeledStmt)
			if isLbl {
				target = lbl.Stmt
			}
			r, ok := target.(*ast.RangeStmt)
			if !ok || r.Value != nil || (r.Key != nil && r.Tok != token.DEFINE) || obviousCollection(r.X) {
				continue
			}
			repl := rw.rangeInt(r)
			if isLbl {
				lbl.Stmt = repl
			} else {
				list[i] = repl
			}
			changed = true
		}
	}
	ast.Inspect(n, func(x ast.Node) bool {
		switch b := x.(type) {
		case *ast.BlockStmt:
			fix(b.List)
		case *ast.CaseClause:
			fix(b.Body)
		case *ast.CommClause:
			fix(b.Body)
		}
		return true
	})
	return changed
}

func obviousCollection(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.BasicLit:
		return x.Kind == token.STRING
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "make" || id.Name == "append") {
			return true
		}
		return isSeqCall(e)
	}
	return false
}

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
			c.Fun = &ast.Ident{Name: "_grundyAsError", NamePos: id.Pos()} // error(v)
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
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: &ast.Ident{Name: "grundyrt", NamePos: e.Pos()}, Sel: &ast.Ident{Name: "ErrorKey", NamePos: e.Pos()}}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
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
		src = fmt.Sprintf("func(x %s) any { var ks []any; var kss, vss []string; for k, v := range x { kk := k; ks = append(ks, kk); kss = append(kss, %s); vss = append(vss, %s) }; return grundyrt.FmtMap(ks, kss, vss) }", exprString(t), ks, vs)
	case *ast.Ident:
		if _, call := arg.(*ast.CallExpr); call {
			// yaegi hands fmt a call's result without its methods.
			for _, m := range []string{"Error", "String"} {
				if rw.valueMethod(x.Name, m) {
					src = fmt.Sprintf("func(x %s) any { return grundyrt.FmtAs(x, x.%s()) }", x.Name, m)
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
					v, helped = "grundyrt.FmtAs(x."+n+", x."+n+".Error())", true
				} else if rw.valueMethod(id.Name, "String") {
					v, helped = "grundyrt.FmtAs(x."+n+", x."+n+".String())", true
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
	return fmt.Sprintf("grundyrt.FmtStruct(x, []string{%s}, []any{%s})", strings.Join(names, ", "), strings.Join(vals, ", "))
}

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

// lostStructAssert refuses x.(T), T a cell struct type, when x has a
// native interface type other than error (fmt.Stringer, sort.Interface):
// yaegi v0.16.1 keeps only the last field of a struct value stored in one,
// so the assertion could only fail or give a wrong value. (Values stored
// in an error are rebuilt whole by the engine: see _grundyAsError.)
func (rw *rewriter) lostStructAssert(x *ast.TypeAssertExpr) {
	id, ok := x.Type.(*ast.Ident)
	if !ok || rw.it == nil {
		return
	}
	ts, ok := rw.cellType(id.Name)
	if !ok {
		return
	}
	if _, isStruct := ts.Type.(*ast.StructType); !isStruct {
		return
	}
	t := rw.typeOf(x.X)
	if t == nil {
		t = rw.nativeTypeOf(rw.astTypeOf(x.X))
	}
	if t == nil || t.Kind() != reflect.Interface || t.NumMethod() == 0 || t == errorType {
		return
	}
	rw.fail(x.Pos(), fmt.Sprintf("%s.(%s): this interpreter loses a %s struct value stored in a %s; store a pointer (&%s{...}, with methods on *%s) and assert .(*%s)", exprString(x.X), id.Name, id.Name, t, id.Name, id.Name, id.Name))
}

// nativeTypeOf is the reflect type of a source type pkg.T of a preloaded
// or imported package; nil for anything else.
func (rw *rewriter) nativeTypeOf(t ast.Expr) reflect.Type {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || rw.it == nil {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || rw.isVar(pkg.Name) {
		return nil
	}
	path, ok := rw.it.pkgs[pkg.Name]
	if !ok {
		return nil
	}
	key, ok := symbolsHave(path)
	if !ok {
		return nil
	}
	v, ok := lookupSymbol(key, sel.Sel.Name)
	if !ok || !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() {
		return nil // types are exported as typed nil pointers
	}
	return v.Type().Elem()
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
		if _, declared := rw.ints[pkg.Name]; declared || rw.isVar(pkg.Name) {
			return e
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
