// Package cell says what a cell is: any mix of imports, declarations and
// statements, in any order, as a Go programmer would write them in a
// notebook. Parse splits a cell into an import file, a declaration file
// and a statement block, all positioned in the cell's own text; Hoist moves
// top-level variables that the cell's functions use to package level, as
// they would be in a Go file.
package cell

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// A cell is any mix of imports, declarations and statements. It is split at
// top-level statement boundaries into segments; imports and func/type
// declarations are compiled as a file (so they may appear in any order and
// refer to each other), and statements together with var/const
// declarations run in order as one block in the global scope.
//
// Each part is parsed from the cell's own text with everything else blanked
// out and a /*line*/ directive in front, so every position the parser or
// the interpreter reports is the cell's own line and column.

type segKind int

const (
	segImport segKind = iota
	segDecl           // func, method, type
	segStmt           // statements and var/const declarations
)

type segment struct {
	kind       segKind
	start, end int // byte offsets in the cell
}

type ctok struct {
	pos int
	tok token.Token
	lit string
}

// splitCell finds the top-level segments of src.
func splitCell(src string) ([]segment, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)

	var toks []ctok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, ctok{file.Offset(pos), t, lit})
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}

	// A package clause (a whole file pasted into a cell) is dropped.
	if len(toks) >= 2 && toks[0].tok == token.PACKAGE && toks[1].tok == token.IDENT {
		toks = toks[2:]
	}
	var segs []segment
	depth := 0
	begin := -1 // index of the first token of the current segment
	flush := func(endTok int) {
		if begin < 0 {
			return
		}
		first := toks[begin]
		last := toks[endTok]
		end := last.pos + len(last.lit)
		if last.lit == "" || last.tok.IsOperator() {
			end = last.pos + len(last.tok.String())
		}
		if last.tok == token.SEMICOLON && last.lit == "\n" {
			end = last.pos
		}
		kind := segStmt
		switch first.tok {
		case token.IMPORT:
			kind = segImport
		case token.TYPE:
			kind = segDecl
		case token.FUNC:
			if isFuncDecl(toks[begin : endTok+1]) {
				kind = segDecl
			}
		}
		segs = append(segs, segment{kind: kind, start: first.pos, end: end})
		begin = -1
	}
	// header: between for/if/switch and its block, where semicolons
	// separate clauses, not statements ("for i := 0; ; i++ {").
	header := false
	for i, t := range toks {
		if begin < 0 {
			if t.tok == token.SEMICOLON {
				continue
			}
			begin = i
		}
		switch t.tok {
		case token.FOR, token.IF, token.SWITCH:
			if depth == 0 {
				header = true
			}
		case token.LPAREN, token.LBRACK, token.LBRACE:
			if t.tok == token.LBRACE && depth == 0 {
				header = false
			}
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.SEMICOLON:
			if depth == 0 && !header {
				flush(i)
			}
		}
	}
	if begin >= 0 {
		flush(len(toks) - 1)
	}
	return segs, nil
}

// isFuncDecl tells a function or method declaration from a statement that
// starts with a function literal.
func isFuncDecl(toks []ctok) bool {
	if len(toks) < 2 {
		return false
	}
	if toks[1].tok == token.IDENT {
		return true
	}
	if toks[1].tok != token.LPAREN {
		return false
	}
	// func (recv) Name( ... : a method. func (params) ... : a literal.
	depth := 0
	for i := 1; i < len(toks); i++ {
		switch toks[i].tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
			if depth == 0 {
				return i+2 < len(toks) && toks[i+1].tok == token.IDENT &&
					(toks[i+2].tok == token.LPAREN || toks[i+2].tok == token.LBRACK)
			}
		}
	}
	return false
}

// blankExcept returns src with every byte outside the segments of kind k
// replaced by a space (newlines kept), so positions stay the cell's.
func blankExcept(src string, segs []segment, keep func(segKind) bool) (string, bool) {
	b := []byte(src)
	out := make([]byte, len(b))
	for i, c := range b {
		if c == '\n' {
			out[i] = '\n'
		} else {
			out[i] = ' '
		}
	}
	any := false
	for _, s := range segs {
		if keep(s.kind) {
			copy(out[s.start:s.end], b[s.start:s.end])
			any = true
		}
	}
	return string(out), any
}

// Cell is a parsed cell.
type Cell struct {
	Imports *ast.File      // nil when the cell has none
	Decls   *ast.File      // functions, methods, types (and what Hoist moves); nil when none
	Stmts   *ast.BlockStmt // nil when the cell has none
	Trail   *ast.ExprStmt  // the last statement, when it is an expression
	Src     string
	declOff int // where Src starts in the file Decls was parsed from
}

// DeclSource is the text of d, a declaration of Decls as the cell parsed
// it, and where it starts ("cell:3:1"), for parsing it again with Go's
// //line directive: positions then stay the cell's.
func (pc *Cell) DeclSource(fset *token.FileSet, d ast.Decl) (text, at string) {
	f := fset.File(d.Pos())
	if pc.Decls == nil || f == nil || f != fset.File(pc.Decls.Package) {
		return "", ""
	}
	start, end := f.Offset(d.Pos())-pc.declOff, f.Offset(d.End())-pc.declOff
	if start < 0 || end > len(pc.Src) || start > end {
		return "", ""
	}
	p := fset.Position(d.Pos())
	return pc.Src[start:end], fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// Parse parses src into fset under the name file.
func Parse(fset *token.FileSet, file, src string) (*Cell, error) {
	segs, err := splitCell(src)
	if err != nil {
		return nil, err
	}
	pc := &Cell{Src: src}
	line := "/*line " + file + ":1:1*/"
	mode := parser.ParseComments | parser.SkipObjectResolution
	if text, ok := blankExcept(src, segs, func(k segKind) bool { return k == segImport }); ok {
		f, err := parser.ParseFile(fset, file, "package main;"+line+text, mode)
		if err != nil {
			return nil, err
		}
		pc.Imports = f
	}
	if text, ok := blankExcept(src, segs, func(k segKind) bool { return k == segDecl }); ok {
		f, err := parser.ParseFile(fset, file, "package main;"+line+text, mode)
		if err != nil {
			return nil, err
		}
		pc.Decls = f
		pc.declOff = len("package main;" + line)
	}
	if text, ok := blankExcept(src, segs, func(k segKind) bool { return k == segStmt }); ok {
		// The closing brace is placed where the cell ends, so "unexpected
		// end" errors point there.
		// (After the last non-blank character: a script's final newline
		// would put it on a line the file does not have.)
		trimmed := strings.TrimRight(src, " \t\r\n")
		endLine := 1 + strings.Count(trimmed, "\n")
		endCol := 1 + len(trimmed) - (strings.LastIndexByte(trimmed, '\n') + 1)
		closing := fmt.Sprintf("\n/*line %s:%d:%d*/}", file, endLine, endCol)
		f, err := parser.ParseFile(fset, file, "package main;func main(){"+line+text+closing, mode)
		if err != nil {
			// That brace is the engine's, not the cell's.
			if list, ok := err.(scanner.ErrorList); ok {
				for _, e := range list {
					if e.Pos.Line == endLine && e.Pos.Column == endCol && strings.HasSuffix(e.Msg, "found '}'") {
						e.Msg = strings.TrimSuffix(e.Msg, "'}'") + "end of input"
					}
				}
			}
			return nil, err
		}
		body := f.Decls[0].(*ast.FuncDecl).Body
		pc.Stmts = body
		// The trailing expression is shown only when the cell ends with it.
		if n := len(body.List); n > 0 && len(segs) > 0 && segs[len(segs)-1].kind == segStmt {
			if es, ok := body.List[n-1].(*ast.ExprStmt); ok {
				pc.Trail = es
			}
		}
	}
	return pc, nil
}

// Hoist moves top-level var and const declarations of the statement
// part into the declarations, as Go does at package level, so functions
// of the same cell can use them; and turns "x := expr" into "var x = expr"
// when a function of the cell uses x, or one of an earlier cell
// (usedElsewhere: the new x replaces the one it was compiled with), or a
// variable it uses needs x. (The compatibility passes then assign each
// hoisted variable's value where its statement stood.) Declarations whose
// initializers use names that the cell's statements define and that stay
// there stay in place, in order, and so do a ":=" that assigns a name an
// earlier statement defined, and declarations no function needs that
// keepInPlace reports (the interpreter's limits decide which).
func (pc *Cell) Hoist(keepInPlace func(ast.Node) bool, usedElsewhere func(name string) bool) {
	if pc.Stmts == nil {
		return
	}
	stmtDefined := map[string]bool{}
	for _, s := range pc.Stmts.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						stmtDefined[id.Name] = true
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							stmtDefined[id.Name] = true
						}
					}
				}
			}
		}
	}
	declRefs := map[string]bool{}
	if pc.Decls != nil {
		ast.Inspect(pc.Decls, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				declRefs[id.Name] = true
			}
			return true
		})
	}
	hoistedNames := map[string]bool{} // moved to the declarations so far
	// independent: uses no name that only the cell's statements define.
	independent := func(own []*ast.Ident, exprs ...ast.Node) bool {
		mine := map[string]bool{}
		for _, id := range own {
			mine[id.Name] = true
		}
		ok := true
		for _, e := range exprs {
			if e == nil {
				continue
			}
			ast.Inspect(e, func(n ast.Node) bool {
				if id, isID := n.(*ast.Ident); isID && stmtDefined[id.Name] && !mine[id.Name] && !hoistedNames[id.Name] {
					ok = false
				}
				return ok
			})
		}
		return ok
	}
	// defines lists what a statement declares, and the values it gives.
	defines := func(s ast.Stmt) (names []*ast.Ident, values []ast.Node) {
		switch st := s.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names = append(names, id)
					}
				}
				for _, r := range st.Rhs {
					values = append(values, r)
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && (gd.Tok == token.VAR || gd.Tok == token.CONST) {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						names = append(names, vs.Names...)
						values = append(values, vs)
					}
				}
			}
		}
		return names, values
	}
	needed := map[string]bool{}
	for name := range stmtDefined {
		if declRefs[name] || usedElsewhere(name) {
			needed[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, s := range pc.Stmts.List {
			names, values := defines(s)
			if !usedBy(names, needed) {
				continue
			}
			for _, v := range values {
				ast.Inspect(v, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && stmtDefined[id.Name] && !needed[id.Name] {
						needed[id.Name] = true
						changed = true
					}
					return true
				})
			}
		}
	}
	var hoisted []ast.Decl
	var keep []ast.Stmt
	hoist := func(d *ast.GenDecl, names []*ast.Ident) {
		hoisted = append(hoisted, d)
		for _, id := range names {
			hoistedNames[id.Name] = true
		}
	}
	// Rounds: a declaration that needs one a later statement makes is
	// hoisted once that one is (var c = b; var a, b = f(), c used by a
	// function), as Go declares both at package level; its value is then
	// read above the other's, which compat's initOrder refuses by name
	// (left in place, the function found c undefined).
	list := pc.Stmts.List
	for round := 0; ; round++ {
		keep = nil
		definedBefore := map[string]bool{} // by the statements before s (and those hoisted)
		for n := range hoistedNames {
			definedBefore[n] = true
		}
		before := len(hoisted)
		for i, s := range list {
			last := i == len(list)-1 && pc.Trail != nil
			names, _ := defines(s)
			redefines := usedBy(names, definedBefore) // "a, err := ..." after an err: assigns err
			for _, id := range names {
				definedBefore[id.Name] = true
			}
			switch st := s.(type) {
			case *ast.DeclStmt:
				gd, ok := st.Decl.(*ast.GenDecl)
				if ok && !last && (gd.Tok == token.VAR || gd.Tok == token.CONST) {
					var names []*ast.Ident
					var nodes []ast.Node
					for _, sp := range gd.Specs {
						if vs, ok := sp.(*ast.ValueSpec); ok {
							names = append(names, vs.Names...)
							nodes = append(nodes, vs)
						}
					}
					if independent(names, nodes...) && (usedBy(names, needed) || !keepInPlace(gd) && !readsOwn(names, nodes)) {
						hoist(gd, names)
						continue
					}
				}
			case *ast.AssignStmt:
				if st.Tok == token.DEFINE && (len(st.Lhs) == len(st.Rhs) || len(st.Rhs) == 1) && !redefines {
					var names []*ast.Ident
					used := false
					for _, l := range st.Lhs {
						id, ok := l.(*ast.Ident)
						if !ok {
							names = nil
							break
						}
						names = append(names, id)
						used = used || needed[id.Name]
					}
					var rhs []ast.Node
					for _, r := range st.Rhs {
						rhs = append(rhs, r)
					}
					if len(names) > 0 && used && independent(names, rhs...) {
						hoist(&ast.GenDecl{Tok: token.VAR, TokPos: st.Pos(), Specs: []ast.Spec{
							&ast.ValueSpec{Names: names, Values: st.Rhs},
						}}, names)
						continue
					}
				}
			}
			keep = append(keep, s)
		}
		if len(hoisted) == before || round > 0 && len(keep) == len(list) {
			break
		}
		list = keep
	}
	pc.Stmts.List = keep
	if len(hoisted) == 0 {
		if len(keep) == 0 {
			pc.Stmts = nil
		}
		return
	}
	if pc.Decls == nil {
		pc.Decls = &ast.File{Name: ast.NewIdent("main"), Package: pc.Stmts.Lbrace}
	}
	// Constants, types, functions, variables: yaegi v0.16.1 resolves a
	// type name in a variable's declaration before the type's to a stale
	// placeholder (a generic function's type parameter T leaves one for a
	// later type named T), and instantiates a generic type before its
	// methods without them.
	var consts, typs, vars, funcs []ast.Decl
	for _, d := range hoisted {
		if d.(*ast.GenDecl).Tok == token.CONST {
			consts = append(consts, d)
		} else {
			vars = append(vars, d)
		}
	}
	for _, d := range pc.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			typs = append(typs, d)
		} else {
			funcs = append(funcs, d)
		}
	}
	consts, typed := typedLater(consts, typs)
	pc.Decls.Decls = append(append(append(append(consts, typs...), typed...), funcs...), vars...)
	pc.Stmts.List = keep
	if len(keep) == 0 {
		pc.Stmts = nil
	}
}

// readsOwn reports whether a declaration's values read a name it
// declares (var n = n * 2, an earlier cell's n declared again from its
// value): at package level that would be the new variable itself, so it
// stays among the statements unless a function needs it there.
func readsOwn(names []*ast.Ident, values []ast.Node) bool {
	own := map[string]bool{}
	for _, id := range names {
		own[id.Name] = true
	}
	found := false
	for _, v := range values {
		vs, ok := v.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for _, e := range vs.Values {
			ast.Inspect(e, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && own[id.Name] {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// typedLater splits consts into those that go before the cell's types
// and those that go after them: a constant of a type the cell declares
// (const big Heap = 200), or made from one. Before its type, yaegi
// v0.16.1 resolves it on a later round, and a variable of an instance of
// a generic type (var v Vec[int], from v := Vec[int]{...}) compiles the
// instance's methods before that round: a method using the constant
// panicked with "index out of range [1] with length 0" (assignableTo on
// the unresolved type, interp/type.go:1478). A constant that sizes a
// type ([size]Small) stays first, as before.
func typedLater(consts, typs []ast.Decl) (before, after []ast.Decl) {
	late := map[string]bool{}
	for _, d := range typs {
		for _, sp := range d.(*ast.GenDecl).Specs {
			late[sp.(*ast.TypeSpec).Name.Name] = true
		}
	}
	refs := func(n ast.Node, names map[string]bool) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	isLate := make([]bool, len(consts))
	lateNames := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for i, d := range consts {
			if !isLate[i] && refs(d, late) {
				isLate[i], changed = true, true
				for _, sp := range d.(*ast.GenDecl).Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						late[id.Name], lateNames[id.Name] = true, true
					}
				}
			}
		}
	}
	for _, d := range typs {
		for name := range lateNames {
			if refs(d, map[string]bool{name: true}) {
				delete(lateNames, name) // [size]Small: the constant stays first
			}
		}
	}
	for i, d := range consts {
		if isLate[i] && refs(&ast.GenDecl{Specs: namesOnly(d)}, lateNames) {
			after = append(after, d)
		} else {
			before = append(before, d)
		}
	}
	return before, after
}

// namesOnly are the names a const declaration defines, as specs.
func namesOnly(d ast.Decl) []ast.Spec {
	var out []ast.Spec
	for _, sp := range d.(*ast.GenDecl).Specs {
		out = append(out, &ast.ValueSpec{Names: sp.(*ast.ValueSpec).Names})
	}
	return out
}

func usedBy(names []*ast.Ident, refs map[string]bool) bool {
	for _, n := range names {
		if refs[n.Name] {
			return true
		}
	}
	return false
}
