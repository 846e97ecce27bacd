package engine

import (
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// How a differential case becomes one Go program (the oracle side of
// TestDiff). A case is a sequence of cells; its program is package main:
//
//   - imports: the cells' imports, merged. A package a cell names without
//     importing it is imported as the engine imports it: the preloaded
//     names (fmt, strings, games, ...) and any standard package whose name
//     no other standard package has.
//   - func, method, type and const declarations: package level, as written.
//   - top-level variables (x := e, var x = e, var x T): package-level
//     variables of the type go/types gives them, so functions declared in
//     any cell see them as they see session variables; the statement stays
//     where it was as an assignment (x = e). A := that declares nothing new
//     or a var declared twice is a redefinition, which one Go program
//     cannot express: such cases belong in testdata/snippets.
//   - each cell's statements: one function per cell, called from main in
//     order, so that a top-level defer runs when its cell ends.
//   - a panic leaving a cell is recovered at the cell's end and printed as
//     "!! panic: V", V being what Go's runtime prints after "panic: " (for
//     a value Go prints as an address, "(T) %v"); the next cell runs, as
//     the session goes on after a failed cell.
//   - a trailing expression (the cell's last item, an expression with a
//     value) is printed as the engine shows a value: its %v on a line; of
//     several values the %v of each, space-separated; a non-nil error as
//     the last value (or the only one) prints "!! error: " and the error's
//     first line instead; a nil last value is dropped; a call whose only
//     value is nil prints nothing. Calls the engine never shows (wantsShow:
//     fmt.Print*, fmt.Fprint*, log.*, copy, recover) stay statements.
//     The value is made where the cell ends and shown after the cell's
//     top-level defers have run, as the notebook shows Out after all of
//     the cell's output: in a cell with a top-level defer it is kept by a
//     function that a defer placed first (so run last) calls.
//
// The engine's side prints, per cell: its stdout, "!! Name: Value" when it
// fails, then its value's text/plain; stderr is compared separately.

// diffCell is one cell cut into what goes where.
type diffCell struct {
	imports []string   // import declarations, as written
	decls   []string   // func and method declarations, as written
	stmts   []diffStmt // the rest, in order (type/const/var declarations included)
	// endsWithStmt: the cell's last item is a statement (so a trailing
	// expression is shown).
	endsWithStmt bool
}

type diffStmt struct {
	src  string // as written
	node ast.Stmt
	off  int // offset of node's positions into src: src[pos-off:]
}

// cutDiffCell finds the cell's top-level import and func declarations by
// scanning tokens at bracket depth 0, and parses what remains as a
// function body.
func cutDiffCell(src string) (*diffCell, error) {
	type tok struct {
		off int
		t   token.Token
		lit string
	}
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(src))
	var errs scanner.ErrorList
	var sc scanner.Scanner
	sc.Init(f, []byte(src), func(p token.Position, msg string) { errs.Add(p, msg) }, 0)
	var toks []tok
	for {
		p, t, lit := sc.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{f.Offset(p), t, lit})
	}
	if errs.Len() > 0 {
		return nil, errs
	}
	// isDecl: toks[i] is "func" starting a declaration, not a literal:
	// "func Name" or "func (recv) Name(".
	isDecl := func(i int) bool {
		if i+1 >= len(toks) {
			return false
		}
		if toks[i+1].t == token.IDENT {
			return true
		}
		depth := 0
		for j := i + 1; j < len(toks); j++ {
			switch toks[j].t {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				if depth--; depth == 0 {
					return j+2 < len(toks) && toks[j+1].t == token.IDENT && toks[j+2].t == token.LPAREN
				}
			}
		}
		return false
	}
	c := &diffCell{}
	body := []byte(src)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if body[k] != '\n' {
				body[k] = ' '
			}
		}
	}
	depth, start := 0, true
	lastKind := "" // of the last item: "stmt" or "decl"
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if start && t.t == token.SEMICOLON {
			continue
		}
		if start && i+1 < len(toks) && t.t == token.PACKAGE && toks[i+1].t == token.IDENT {
			// A pasted file's package clause: the engine drops it too.
			blank(t.off, toks[i+1].off+len(toks[i+1].lit))
			i++
			continue
		}
		if start && (t.t == token.IMPORT || t.t == token.FUNC && isDecl(i)) {
			j, d := i, 0
			for ; j < len(toks); j++ {
				switch toks[j].t {
				case token.LPAREN, token.LBRACE, token.LBRACK:
					d++
				case token.RPAREN, token.RBRACE, token.RBRACK:
					d--
				}
				if d == 0 && toks[j].t == token.SEMICOLON {
					break
				}
			}
			end := len(src)
			if j < len(toks) {
				end = toks[j].off
			}
			text := src[t.off:end]
			if t.t == token.IMPORT {
				c.imports = append(c.imports, text)
			} else {
				c.decls = append(c.decls, text)
			}
			blank(t.off, end)
			lastKind = "decl"
			i = j
			continue
		}
		start = false
		lastKind = "stmt"
		switch t.t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.SEMICOLON:
			start = depth == 0
		}
	}
	c.endsWithStmt = lastKind == "stmt"
	const prefix = "package main\nfunc _() {\n"
	text := prefix + string(body) + "\n}\n"
	file, err := parser.ParseFile(token.NewFileSet(), "cell", text, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, s := range file.Decls[0].(*ast.FuncDecl).Body.List {
		if _, empty := s.(*ast.EmptyStmt); empty {
			continue
		}
		// The file set's base is 1: Pos p is byte p-1 of text.
		from, to := int(s.Pos())-1, int(s.End())-1
		c.stmts = append(c.stmts, diffStmt{src: text[from:to], node: s, off: from + 1})
	}
	return c, nil
}

// diffConverter turns cases into programs; its importer and tables are
// shared by all cases.
type diffConverter struct {
	importer types.Importer
	// autoNames: package name -> import path, for names a cell may use
	// without importing (the engine's preloaded packages, and standard
	// packages with a name of their own).
	autoNames map[string]string
	// harness is the program's second file, testdata/diff_harness.go.
	harness string
}

// diffProgram is a case as a Go program.
type diffProgram struct {
	main    string
	imports []string // every import path of the program
}

var undefinedMsg = regexp.MustCompile(`^undefined: (\w+)$`)

// draftOnlyError: errors of the draft's one main function that the
// program, with a function per cell and package-level variables, does not
// have: unused variables, repeated labels, trailing expressions (shown by
// the program) and redefinitions (reported by assemble).
var draftOnlyError = regexp.MustCompile(`^(declared and not used|label \w+ (already declared|declared and not used)|no new variables|\w+ redeclared|\s*other declaration of)|is not used$`)

func (dc *diffConverter) convert(cellSrcs []string) (*diffProgram, error) {
	var cells []*diffCell
	for i, s := range cellSrcs {
		c, err := cutDiffCell(s)
		if err != nil {
			return nil, fmt.Errorf("cell %d: %v", i+1, err)
		}
		cells = append(cells, c)
	}
	imps, err := mergeDiffImports(cells)
	if err != nil {
		return nil, err
	}
	// Names the case declares at top level are never packages to import.
	declared := map[string]bool{}
	for _, c := range cells {
		for _, st := range c.stmts {
			switch s := st.node.(type) {
			case *ast.AssignStmt:
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			case *ast.DeclStmt:
				for _, sp := range s.Decl.(*ast.GenDecl).Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							declared[id.Name] = true
						}
					case *ast.TypeSpec:
						declared[sp.Name.Name] = true
					}
				}
			}
		}
		for _, d := range c.decls {
			if m := regexp.MustCompile(`^func\s+(\w+)`).FindStringSubmatch(d); m != nil {
				declared[m[1]] = true
			}
		}
	}

	// The draft: every statement in main, as written, to learn the types
	// of top-level variables and trailing expressions. Its errors (a
	// function using a variable main declares) do not matter, except
	// "undefined: pkg", which adds an import.
	var info *types.Info
	var drafted []ast.Stmt
	for round := 0; ; round++ {
		var b strings.Builder
		b.WriteString("package main\n\n")
		writeDiffImports(&b, imps)
		for _, c := range cells {
			for _, d := range c.decls {
				b.WriteString(d + "\n\n")
			}
		}
		// Types and constants are package-level already, so that methods
		// attach; a block stands in for each in main.
		var body strings.Builder
		for _, c := range cells {
			for _, st := range c.stmts {
				if isDiffTypeOrConst(st.node) {
					b.WriteString(st.src + "\n\n")
					body.WriteString("{}\n")
					continue
				}
				body.WriteString(st.src + "\n")
			}
		}
		b.WriteString("func main() {\n" + body.String() + "}\n")
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "draft.go", b.String(), parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("draft: %v\n%s", err, b.String())
		}
		info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}}
		mainBody := file.Decls[len(file.Decls)-1].(*ast.FuncDecl).Body
		var missing, stmtErrs []string
		conf := types.Config{Importer: dc.importer, Error: func(err error) {
			var te types.Error
			if !errors.As(err, &te) {
				return
			}
			if m := undefinedMsg.FindStringSubmatch(te.Msg); m != nil && !declared[m[1]] {
				if _, ok := dc.autoNames[m[1]]; ok {
					if !slices.Contains(missing, m[1]) {
						missing = append(missing, m[1])
					}
					return
				}
			}
			// The statements must be valid in order, as in one function
			// body, but for what the program's shape makes right.
			if te.Pos >= mainBody.Lbrace && te.Pos < mainBody.Rbrace && !draftOnlyError.MatchString(te.Msg) {
				stmtErrs = append(stmtErrs, te.Msg)
			}
		}}
		pkg, _ := conf.Check("main", fset, []*ast.File{file}, info)
		if len(missing) > 0 && round < 3 {
			for _, n := range missing {
				imps = append(imps, diffImport{path: dc.autoNames[n]})
			}
			continue
		}
		if len(stmtErrs) > 0 {
			return nil, fmt.Errorf("the cells' statements are not valid Go in order: %s", strings.Join(stmtErrs, "; "))
		}
		drafted = file.Decls[len(file.Decls)-1].(*ast.FuncDecl).Body.List
		n := 0
		for _, c := range cells {
			n += len(c.stmts)
		}
		if len(drafted) != n {
			return nil, fmt.Errorf("draft has %d statements, the cells %d", len(drafted), n)
		}
		return dc.assemble(cells, imps, info, drafted, pkg)
	}
}

func isDiffTypeOrConst(s ast.Stmt) bool {
	ds, ok := s.(*ast.DeclStmt)
	return ok && ds.Decl.(*ast.GenDecl).Tok != token.VAR
}

type diffImport struct{ name, path string }

func mergeDiffImports(cells []*diffCell) ([]diffImport, error) {
	var imps []diffImport
	for _, c := range cells {
		for _, text := range c.imports {
			f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.ImportsOnly)
			if err != nil {
				return nil, err
			}
			for _, is := range f.Imports {
				path, _ := strconv.Unquote(is.Path.Value)
				imp := diffImport{path: path}
				if is.Name != nil {
					imp.name = is.Name.Name
				}
				if !slices.Contains(imps, imp) {
					imps = append(imps, imp)
				}
			}
		}
	}
	return imps, nil
}

func writeDiffImports(b *strings.Builder, imps []diffImport) {
	if len(imps) == 0 {
		return
	}
	b.WriteString("import (\n")
	for _, imp := range imps {
		if imp.name != "" {
			b.WriteString("\t" + imp.name + " ")
		} else {
			b.WriteString("\t")
		}
		b.WriteString(strconv.Quote(imp.path) + "\n")
	}
	b.WriteString(")\n\n")
}

// assemble writes the program from the cells and the draft's types.
func (dc *diffConverter) assemble(cells []*diffCell, imps []diffImport, info *types.Info, drafted []ast.Stmt, pkg *types.Package) (*diffProgram, error) {
	importName := map[string]string{} // path -> name in the program
	for _, imp := range imps {
		if imp.name != "" {
			importName[imp.path] = imp.name
		}
	}
	qualifier := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		if n, ok := importName[p.Path()]; ok {
			return n
		}
		for _, imp := range imps {
			if imp.path == p.Path() {
				return p.Name()
			}
		}
		imps = append(imps, diffImport{path: p.Path()})
		return p.Name()
	}
	var decls, vars strings.Builder
	var cellFuncs []string
	hoisted := map[string]bool{}
	k := 0 // index into drafted
	for ci, c := range cells {
		for _, d := range c.decls {
			decls.WriteString(d + "\n\n")
		}
		var body strings.Builder
		later := false // a top-level defer: the value is shown after it
		for _, st := range c.stmts {
			ast.Inspect(st.node, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.DeferStmt:
					later = true // (in a loop or a block too: it runs when the cell ends)
				case *ast.FuncLit:
					return false
				}
				return !later
			})
		}
		if later {
			body.WriteString("var _diffLater func()\ndefer func() {\nif _diffLater != nil {\n_diffLater()\n}\n}()\n")
		}
		for si, st := range c.stmts {
			ds := drafted[k]
			k++
			text := st.src
			switch s := st.node.(type) {
			case *ast.DeclStmt:
				gd := s.Decl.(*ast.GenDecl)
				if gd.Tok != token.VAR {
					decls.WriteString(text + "\n\n")
					continue
				}
				var assigns []string
				for i, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					dvs := ds.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[i].(*ast.ValueSpec)
					var names []string
					for j, id := range vs.Names {
						names = append(names, id.Name)
						if id.Name == "_" {
							continue
						}
						if hoisted[id.Name] {
							return nil, fmt.Errorf("cell %d declares var %s again: a redefinition belongs in testdata/snippets", ci+1, id.Name)
						}
						hoisted[id.Name] = true
						typ := ""
						if vs.Type != nil {
							typ = st.slice(vs.Type)
						} else if obj := info.Defs[dvs.Names[j]]; obj != nil {
							typ = types.TypeString(obj.Type(), qualifier)
						} else {
							return nil, fmt.Errorf("cell %d: no type for %s", ci+1, id.Name)
						}
						fmt.Fprintf(&vars, "\t%s %s\n", id.Name, typ)
					}
					if len(vs.Values) > 0 {
						assigns = append(assigns, strings.Join(names, ", ")+" = "+st.sliceRange(vs.Values[0].Pos(), vs.Values[len(vs.Values)-1].End()))
					}
				}
				text = strings.Join(assigns, "\n")
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					break
				}
				dassign := ds.(*ast.AssignStmt)
				fresh := false
				for j, l := range s.Lhs {
					id := l.(*ast.Ident)
					if id.Name == "_" || hoisted[id.Name] {
						continue
					}
					fresh = true
					hoisted[id.Name] = true
					obj := info.Defs[dassign.Lhs[j].(*ast.Ident)]
					if obj == nil {
						return nil, fmt.Errorf("cell %d: no type for %s", ci+1, id.Name)
					}
					fmt.Fprintf(&vars, "\t%s %s\n", id.Name, types.TypeString(obj.Type(), qualifier))
				}
				if !fresh {
					return nil, fmt.Errorf("cell %d: %s declares nothing new: a redefinition belongs in testdata/snippets", ci+1, text)
				}
				at := int(s.TokPos) - st.off
				text = text[:at] + "=" + text[at+2:]
			case *ast.ExprStmt:
				if si != len(c.stmts)-1 || !c.endsWithStmt || !wantsShow(s.X) {
					break
				}
				tv, ok := info.Types[ds.(*ast.ExprStmt).X]
				if !ok || tv.IsVoid() {
					break
				}
				show := "_diffShow"
				if _, call := s.X.(*ast.CallExpr); call {
					show = "_diffShowCall"
				}
				if later {
					text = "func(vs ...any) { _diffLater = func() { " + show + "(vs...) } }(" + text + ")"
				} else {
					text = show + "(" + text + ")"
				}
			}
			body.WriteString(text + "\n")
		}
		name := fmt.Sprintf("_diffCell%d", ci+1)
		cellFuncs = append(cellFuncs, name)
		decls.WriteString("func " + name + "() {\n" + body.String() + "}\n\n")
	}
	var b strings.Builder
	b.WriteString("package main\n\n")
	writeDiffImports(&b, imps)
	if vars.Len() > 0 {
		b.WriteString("var (\n" + vars.String() + ")\n\n")
	}
	b.WriteString("func main() {\n")
	for _, f := range cellFuncs {
		b.WriteString("\t_diffRun(" + f + ")\n")
	}
	b.WriteString("}\n\n")
	b.WriteString(decls.String())
	p := &diffProgram{main: b.String()}
	if src, err := format.Source([]byte(p.main)); err == nil {
		p.main = string(src)
	}
	for _, imp := range imps {
		p.imports = append(p.imports, imp.path)
	}
	return p, nil
}

// slice is the source of node n of the statement.
func (st diffStmt) slice(n ast.Node) string { return st.sliceRange(n.Pos(), n.End()) }

func (st diffStmt) sliceRange(from, to token.Pos) string {
	return st.src[int(from)-st.off : int(to)-st.off]
}

// check type-checks the program strictly: what go/types rejects the
// compiler rejects, and the message is clearer than a build log.
func (dc *diffConverter) check(p *diffProgram) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for name, src := range map[string]string{"main.go": p.main, "harness.go": dc.harness} {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	var errs []string
	conf := types.Config{Importer: dc.importer, Error: func(err error) {
		if len(errs) < 5 {
			errs = append(errs, err.Error())
		}
	}}
	conf.Check("main", fset, files, nil)
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}
