// Package typecheck is the engine's type oracle: go/types over what a
// session can see. Packages come from the symbol tables the interpreter is
// given (a Universe, shared by every session of the process) and from the
// engine's own source packages; a Session adds the declarations of the
// cells run so far. Each cell is checked once, before it is rewritten, and
// the Info answers every type question the compatibility passes,
// completion and inspection ask: no pass guesses a type from the syntax.
//
// A cell is checked as a file of package main: its declarations at
// package level and its statements as the body of one function. The
// session's earlier objects are inserted into the package scope, so a cell
// costs what its own code costs to check, whatever came before it. Type
// errors are collected, not fatal: the interpreter reports errors; the
// oracle answers for what it could type.
package typecheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
)

// Session is what the oracle knows of one interpreter session.
type Session struct {
	u *Universe
	// packages gives the names a cell can use for packages (preloaded or
	// imported by a cell) and their import paths.
	packages func() map[string]string
	objs     map[string]types.Object // top-level names the cells declared, latest first
	docs     map[types.Object]string // their doc comments, and their methods'
	// locals are the struct types declared in functions that compat's
	// localTypeNames declared at package level, by their names there
	// (see Info.RenameType), for the assertions of later cells.
	locals map[*types.TypeName]string
	// uncommitted is the last cell checked, until it is committed: the
	// methods it added to earlier cells' types go when the next cell is
	// checked, if it never is (it failed).
	uncommitted *Info
}

// NewSession starts an empty session over u; packages is consulted at each
// check.
func NewSession(u *Universe, packages func() map[string]string) *Session {
	return &Session{u: u, packages: packages, objs: map[string]types.Object{}, docs: map[types.Object]string{}}
}

// Doc is the doc comment of a function, method or type an earlier cell
// declared, "" for none.
func (s *Session) Doc(obj types.Object) string { return s.docs[obj] }

// Universe is the session's package universe.
func (s *Session) Universe() *Universe { return s.u }

// Lookup is the object a cell declared at top level under name, or nil.
func (s *Session) Lookup(name string) types.Object { return s.objs[name] }

// Forget drops names (variables the interpreter could not keep).
func (s *Session) Forget(names ...string) {
	for _, n := range names {
		delete(s.objs, n)
	}
}

// Cell is the code of one cell as the engine splits it.
type Cell struct {
	Decls []ast.Decl // package-level: funcs, methods, types, vars, consts
	Stmts []ast.Stmt // the top-level statements, in order
	Src   string     // the cell's text, for the doc comments of its declarations
}

// Check type-checks a cell against the session. It never fails: what
// cannot be typed has no type in the Info.
func (s *Session) Check(fset *token.FileSet, c Cell) *Info { return s.check(fset, c, nil) }

// Draft type-checks a cell being edited, for the tooling: the session is
// left exactly as it was (a method the draft declares on an earlier cell's
// type is not added to it), the Info has Scopes, and imports names the
// packages the draft may use besides the session's (those it imports
// itself, those it will import when it runs), "" for none.
func (s *Session) Draft(fset *token.FileSet, c Cell, imports func(name string) string) *Info {
	if imports == nil {
		imports = func(string) string { return "" }
	}
	return s.check(fset, c, imports)
}

// Names lists the top-level names the cells declared, sorted.
func (s *Session) Names() []string {
	out := make([]string, 0, len(s.objs))
	for n := range s.objs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Packages maps the names a cell can use for packages to their import
// paths.
func (s *Session) Packages() map[string]string { return s.packages() }

// check is Check, or Draft when imports is not nil.
func (s *Session) check(fset *token.FileSet, c Cell, imports func(string) string) *Info {
	if imports == nil {
		s.discard()
	}
	pkg := types.NewPackage("main", "main")
	in := &Info{
		Info: types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Implicits:  map[ast.Node]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Instances:  map[*ast.Ident]types.Instance{},
		},
		Pkg:     pkg,
		session: s,
	}
	declared := map[string]bool{} // the cell's own package-level names
	for _, d := range c.Decls {
		for _, n := range DeclNames(d) {
			declared[n] = true
		}
	}
	nodes := make([]ast.Node, 0, len(c.Decls)+len(c.Stmts))
	for _, d := range c.Decls {
		nodes = append(nodes, d)
	}
	for _, st := range c.Stmts {
		nodes = append(nodes, st)
	}
	defer s.keyEarlierLiterals(nodes, declared)() // (for the check only)
	defer s.parenEarlierTypes(c.Decls, declared)()
	file := &ast.File{Name: ast.NewIdent("main")}
	aliases := cellAliases(c.Decls)
	var later []pendingMethod
	for _, d := range c.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			file.Decls = append(file.Decls, d)
			continue
		}
		base, ptr := receiverBase(fd.Recv.List[0].Type)
		if to, ok := aliases[base]; ok && !declared[to] {
			base = to // type L = Earlier; func (l L) M(): a method of Earlier
		}
		if declared[base] {
			file.Decls = append(file.Decls, d)
			continue
		}
		// A method of an earlier cell's type: go/types only attaches
		// methods to types declared in the same check, so the method is
		// checked as a function of its receiver and parameters and
		// added to the type afterwards.
		named, _ := typeOfName(s.objs[base])
		if named == nil {
			file.Decls = append(file.Decls, d)
			continue
		}
		params := &ast.FieldList{List: append([]*ast.Field{fd.Recv.List[0]}, fieldsOf(fd.Type.Params)...)}
		fn := &ast.FuncDecl{Name: &ast.Ident{Name: "_", NamePos: fd.Name.Pos()},
			Type: &ast.FuncType{Func: fd.Type.Func, Params: params, Results: fd.Type.Results}, Body: fd.Body}
		file.Decls = append(file.Decls, fn)
		later = append(later, pendingMethod{fn: fn, name: fd.Name.Name, named: named, ptr: ptr})
	}
	var body *ast.FuncDecl
	if len(c.Stmts) > 0 {
		pos, end := c.Stmts[0].Pos(), c.Stmts[len(c.Stmts)-1].End()
		body = &ast.FuncDecl{Name: &ast.Ident{Name: "_", NamePos: pos},
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
			Body: &ast.BlockStmt{Lbrace: pos, List: topLevel(c.Stmts), Rbrace: end}}
		file.Decls = append(file.Decls, body)
	}
	if imports != nil {
		in.Scopes = map[ast.Node]*types.Scope{}
	} else {
		s.attachEarly(fset, later, declared, in)
		defer func() {
			if len(in.attached) > 0 {
				s.uncommitted = in
			}
		}()
	}
	s.insertUses(pkg, file, declared, imports)
	conf := types.Config{
		Importer: s.u,
		Error: func(err error) {
			if len(in.Errors) < 10 {
				in.Errors = append(in.Errors, err)
			}
		},
	}
	types.NewChecker(&conf, fset, pkg, &in.Info).Files([]*ast.File{file})
	attachedLate := false
	for _, m := range later {
		if imports == nil {
			attachedLate = m.attach(in) || attachedLate
		} else if f := m.method(in); f != nil {
			// A draft leaves the session's types as they are.
			if in.drafted == nil {
				in.drafted = map[*types.Named][]*types.Func{}
			}
			in.drafted[m.named] = append(in.drafted[m.named], f)
		}
	}
	if attachedLate && len(in.Errors) > 0 {
		pkg = s.recheck(fset, in, pkg, c.Decls, body)
		in.Pkg = pkg
	}
	in.docs = declDocs(fset, c, in.Defs)
	in.pending = map[string]types.Object{}
	for name := range declared {
		if obj := pkg.Scope().Lookup(name); obj != nil {
			in.pending[name] = obj
		}
	}
	if body != nil {
		for _, st := range c.Stmts {
			for _, id := range DefinedIdents(st) {
				if obj := in.Defs[id]; obj != nil {
					in.pending[id.Name] = globalOf(pkg, obj)
				}
			}
		}
	}
	return in
}

// declDocs are the doc comments of the functions, methods and types the
// cell declares, by their objects: the // lines right above each in the
// cell's text (the engine parses a cell's declarations without its
// comments).
func declDocs(fset *token.FileSet, c Cell, defs map[*ast.Ident]types.Object) map[types.Object]string {
	docs := map[types.Object]string{}
	if c.Src == "" {
		return docs
	}
	lines := strings.Split(c.Src, "\n")
	note := func(id *ast.Ident, at token.Pos) {
		obj := defs[id]
		line := fset.Position(at).Line // (1 for the cell's first line)
		if obj == nil || line < 1 || line > len(lines) {
			return
		}
		if doc := DocAbove(lines[:line-1]); doc != "" {
			docs[obj] = doc
		}
	}
	for _, d := range c.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			note(d.Name, d.Pos())
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					at := ts.Pos()
					if len(d.Specs) == 1 {
						at = d.Pos()
					}
					note(ts.Name, at)
				}
			}
		}
	}
	return docs
}

// DocAbove is the doc comment ending the lines above a declaration: its
// last // lines, without the markers, "" for none.
func DocAbove(above []string) string {
	first := len(above)
	for first > 0 && strings.HasPrefix(strings.TrimSpace(above[first-1]), "//") {
		first--
	}
	var doc strings.Builder
	for _, l := range above[first:] {
		doc.WriteString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "//")) + "\n")
	}
	return doc.String()
}

// topLevel is the cell's statements as the body of the function they are
// checked in. What is legal at a cell's top level but not in a function
// would cost an error message each (errors are formatted as they are
// found): a value shown by ending the cell with it ("x + 1" is "not
// used") and a variable later cells use ("declared and not used"). So a
// trailing value is assigned to _, and each variable is used at the end.
func topLevel(stmts []ast.Stmt) []ast.Stmt {
	list := make([]ast.Stmt, len(stmts), len(stmts)+4)
	copy(list, stmts)
	if es, ok := list[len(list)-1].(*ast.ExprStmt); ok {
		if _, call := ast.Unparen(es.X).(*ast.CallExpr); !call {
			list[len(list)-1] = blankAssign(es.X)
		}
	}
	end := stmts[len(stmts)-1].End()
	for _, st := range stmts {
		if ds, ok := st.(*ast.DeclStmt); ok {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				// Unused constants are no error, and "_ = c" of an
				// untyped one beyond int (1 << 63) would be.
				continue
			}
		}
		for _, id := range DefinedIdents(st) {
			list = append(list, blankAssign(&ast.Ident{Name: id.Name, NamePos: end}))
		}
	}
	return list
}

// blankAssign is "_ = x".
func blankAssign(x ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: "_", NamePos: x.Pos()}}, Tok: token.ASSIGN, Rhs: []ast.Expr{x}, TokPos: x.Pos()}
}

// Commit records the top-level names a checked cell declared (call it once
// the interpreter has run the cell).
func (s *Session) Commit(in *Info) {
	for name, obj := range in.pending {
		s.objs[name] = obj
	}
	for obj, doc := range in.docs {
		s.docs[obj] = doc
	}
	for tn, name := range in.renamed {
		if _, ok := tn.Type().(*types.Named); ok {
			if s.locals == nil {
				s.locals = map[*types.TypeName]string{}
			}
			s.locals[tn] = name
		}
	}
	in.pending, in.docs, in.attached = nil, nil, nil
	if s.uncommitted == in {
		s.uncommitted = nil
	}
}

// discard takes off their types the methods a cell that was checked but
// not committed (it failed: a type error in a method's body, or the
// interpreter refused it) added to earlier cells' types: a later cell
// calling one was typed, ran what the interpreter had made of the method,
// and panicked ("index out of range [1] with length 0") where it should
// not compile ("T{}.M undefined"; the engine says which cell to run
// again: failedcells.go). A cell that declares the method again adds it
// anew.
func (s *Session) discard() {
	if s.uncommitted == nil {
		return
	}
	for _, a := range s.uncommitted.attached {
		removeMethod(a.named, a.fn)
	}
	s.uncommitted.attached = nil
	s.uncommitted = nil
}

// insertUses puts into the package scope what the file refers to and does
// not declare: the session's objects, and packages by their names.
func (s *Session) insertUses(pkg *types.Package, file *ast.File, declared map[string]bool, imports func(string) string) {
	var pkgs map[string]string
	seen := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || seen[id.Name] || declared[id.Name] || id.Name == "_" {
			return true
		}
		seen[id.Name] = true
		if obj := s.objs[id.Name]; obj != nil {
			pkg.Scope().Insert(obj)
			return true
		}
		if pkgs == nil {
			pkgs = s.packages()
		}
		path, ok := pkgs[id.Name]
		if !ok && imports != nil {
			path = imports(id.Name)
			ok = path != ""
		}
		if ok && s.u.Has(path) {
			if imp, err := s.u.Import(path); err == nil && imp != nil {
				pkg.Scope().Insert(types.NewPkgName(token.NoPos, pkg, id.Name, imp))
			}
		}
		return true
	})
}

type pendingMethod struct {
	fn    *ast.FuncDecl
	name  string
	named *types.Named
	ptr   bool
}

// attachEarly adds to their types, before the cell is checked, the methods
// of earlier cells' types whose signatures name nothing the cell declares
// (func (a Matrix) Inverse() (Matrix, error)), each checked alone: the
// cell's statements and variables calling one are then typed (attached
// after the check, inv, err := a.Inverse() had no type, and a pass that
// needs one, such as varInits, left the call where it ran too early).
func (s *Session) attachEarly(fset *token.FileSet, later []pendingMethod, declared map[string]bool, into *Info) {
	for _, m := range later {
		if signatureMentions(m.fn.Type, declared) {
			continue
		}
		sig := &ast.FuncDecl{Name: &ast.Ident{Name: "_", NamePos: m.fn.Name.Pos()}, Type: m.fn.Type}
		file := &ast.File{Name: ast.NewIdent("main"), Decls: []ast.Decl{sig}}
		pkg := types.NewPackage("main", "main")
		s.insertUses(pkg, file, nil, nil)
		in := &Info{Info: types.Info{Defs: map[*ast.Ident]types.Object{}}}
		failed := false
		conf := types.Config{Importer: s.u, Error: func(error) { failed = true }}
		types.NewChecker(&conf, fset, pkg, &in.Info).Files([]*ast.File{file})
		if !failed {
			if (pendingMethod{fn: sig, name: m.name, named: m.named, ptr: m.ptr}).attach(in) {
				into.attached = append(into.attached, in.attached...)
			}
		}
	}
}

// signatureMentions reports whether the types of ft's parameters and
// results mention one of names (the parameters' own names do not count).
func signatureMentions(ft *ast.FuncType, names map[string]bool) bool {
	found := false
	for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
		for _, f := range fieldsOf(fl) {
			ast.Inspect(f.Type, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && names[id.Name] {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// attach adds the method to its type, and reports whether it did. Not to
// a generic type: go/types expands an instance's methods from its origin
// once, so an instance an earlier cell made (a := &Set[int]{}) keeps the
// old count and the next lookup of the new method indexed past it (the
// engine panicked in the checker); the compat pass latermethods refuses
// such a method with the way that works.
func (m pendingMethod) attach(in *Info) bool {
	if m.named.TypeParams().Len() > 0 {
		return false
	}
	for i := range m.named.NumMethods() {
		if m.named.Method(i).Name() == m.name {
			return false // the interpreter keeps the first definition too
		}
	}
	f := m.method(in)
	if f != nil {
		m.named.AddMethod(f)
		in.attached = append(in.attached, attachedMethod{m.named, f})
	}
	return f != nil
}

// recheck types the cell's variables and statements again, in a package
// holding what the first check declared, once the methods the cell
// declares on earlier cells' types and attachEarly could not add (their
// signatures name a type of the cell: func (d Deck) Split() Halves) are
// attached: the first check found no such method (h := d.Split() had no
// type). The cell's types and functions keep their objects; its
// variables are declared anew. It returns the new package.
func (s *Session) recheck(fset *token.FileSet, in *Info, pkg *types.Package, decls []ast.Decl, body *ast.FuncDecl) *types.Package {
	file := &ast.File{Name: ast.NewIdent("main")}
	again := map[string]bool{}
	var spans [][2]token.Pos
	for _, d := range decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			file.Decls = append(file.Decls, gd)
			spans = append(spans, [2]token.Pos{gd.Pos(), gd.End()})
			for _, n := range DeclNames(gd) {
				again[n] = true
			}
		}
	}
	if body != nil {
		file.Decls = append(file.Decls, body)
		spans = append(spans, [2]token.Pos{body.Pos(), body.End()})
	}
	next := types.NewPackage(pkg.Path(), pkg.Name())
	for _, name := range pkg.Scope().Names() {
		switch obj := pkg.Scope().Lookup(name).(type) {
		case *types.PkgName:
			// go/types wants a package name of the package it checks.
			next.Scope().Insert(types.NewPkgName(obj.Pos(), next, name, obj.Imported()))
		default:
			if !again[name] {
				next.Scope().Insert(obj)
			}
		}
	}
	var errs []error
	for _, err := range in.Errors {
		if te, ok := err.(types.Error); !ok || !slices.ContainsFunc(spans, func(sp [2]token.Pos) bool { return sp[0] <= te.Pos && te.Pos < sp[1] }) {
			errs = append(errs, err)
		}
	}
	conf := types.Config{
		Importer: s.u,
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		},
	}
	types.NewChecker(&conf, fset, next, &in.Info).Files([]*ast.File{file})
	in.Errors = errs
	return next
}

// method is the method as the checked function of its receiver and
// parameters declares it, or nil.
func (m pendingMethod) method(in *Info) *types.Func {
	f, _ := in.Defs[m.fn.Name].(*types.Func)
	if f == nil {
		return nil
	}
	sig := f.Type().(*types.Signature)
	if sig.Params().Len() == 0 {
		return nil
	}
	var params []*types.Var
	for i := 1; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	msig := types.NewSignatureType(sig.Params().At(0), nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
	return types.NewFunc(m.fn.Name.Pos(), m.named.Obj().Pkg(), m.name, msig)
}

// globalOf turns a variable of the cell's statements into the session's
// package-level variable.
func globalOf(pkg *types.Package, obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Var:
		return types.NewVar(o.Pos(), pkg, o.Name(), o.Type())
	case *types.Const:
		return types.NewConst(o.Pos(), pkg, o.Name(), o.Type(), o.Val())
	}
	return obj
}

func typeOfName(obj types.Object) (*types.Named, bool) {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil, false
	}
	n, ok := types.Unalias(tn.Type()).(*types.Named) // (type H = Heap: Heap)
	return n, ok
}

// DefinedIdents lists the names a top-level statement declares.
func DefinedIdents(s ast.Stmt) []*ast.Ident {
	var out []*ast.Ident
	switch st := s.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					out = append(out, id)
				}
			}
		}
	case *ast.DeclStmt:
		if gd, ok := st.Decl.(*ast.GenDecl); ok {
			for _, sp := range gd.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					for _, id := range vs.Names {
						if id.Name != "_" {
							out = append(out, id)
						}
					}
				}
			}
		}
	}
	return out
}

// DeclNames lists the package-level names a declaration introduces
// (methods introduce none).
func DeclNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.Name != "_" {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name.Name)
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					if id.Name != "_" {
						out = append(out, id.Name)
					}
				}
			}
		}
	}
	return out
}

// receiverBase is the type name of a receiver, and whether it is a pointer.
func receiverBase(e ast.Expr) (string, bool) {
	ptr := false
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			ptr, e = true, t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.IndexExpr:
			e = t.X
			continue
		case *ast.IndexListExpr:
			e = t.X
			continue
		case *ast.Ident:
			return t.Name, ptr
		}
		return "", ptr
	}
}

// cellAliases maps the aliases decls declare of a type name (type L = A)
// to the name.
func cellAliases(decls []ast.Decl) map[string]string {
	var m map[string]string
	for _, d := range decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok && ts.Assign.IsValid() {
				if id, ok := ast.Unparen(ts.Type).(*ast.Ident); ok {
					if m == nil {
						m = map[string]string{}
					}
					m[ts.Name.Name] = id.Name
				}
			}
		}
	}
	return m
}

func fieldsOf(fl *ast.FieldList) []*ast.Field {
	if fl == nil {
		return nil
	}
	return fl.List
}
