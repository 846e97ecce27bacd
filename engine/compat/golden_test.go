package compat

import (
	"flag"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/cell"
	"grundy/engine/prelude"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the passes write")

// Golden files: testdata/golden/PASS/NAME.txt holds earlier cells, each
// followed by a "// ---" line, then the cell, then a "// Rewritten:" line
// and the cell as the pass PASS alone rewrites it (declarations, then
// statements). The earlier cells are
// typed, not rewritten: they are the session the cell runs in.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Pass{}
	for _, p := range Passes {
		byName[p.Name] = p
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		p, ok := byName[d.Name()]
		if !ok {
			t.Errorf("testdata/golden/%s: no pass of that name", d.Name())
			continue
		}
		seen[p.Name] = true
		files, _ := filepath.Glob(filepath.Join("testdata/golden", d.Name(), "*.txt"))
		for _, f := range files {
			t.Run(p.Name+"/"+strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
				golden(t, p, f)
			})
		}
	}
	for _, p := range Passes {
		if !seen[p.Name] {
			t.Errorf("pass %s has no golden tests (testdata/golden/%s/)", p.Name, p.Name)
		}
	}
}

func golden(t *testing.T, p Pass, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in, want, ok := strings.Cut(string(src), "// Rewritten:\n")
	if !ok && !*update {
		t.Fatalf("%s has no // Rewritten: line", file)
	}
	cells := strings.Split(in, "// ---\n")
	s := newGoldenSession()
	for _, c := range cells[:len(cells)-1] {
		s.run(t, c, nil)
	}
	got := s.run(t, cells[len(cells)-1], &p)
	if *update {
		if err := os.WriteFile(file, []byte(in+"// Rewritten:\n"+got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("%s\n--- got:\n%s\n--- want:\n%s", file, got, want)
	}
}

var universe = sync.OnceValue(func() *typecheck.Universe {
	return typecheck.NewUniverse(prelude.Sources(), prelude.RuntimeTypes(), stdlib.Symbols, symbols.Symbols).WithGeneric(prelude.Generic()).WithHelpers(prelude.GenericStd)
})

// goldenSession is a session of cells that are typed, not run.
type goldenSession struct {
	fset  *token.FileSet
	tc    *typecheck.Session
	funcs map[string]*ast.FuncDecl
	pkgs  map[string]string // package names the cells can use, with their imports
}

func newGoldenSession() *goldenSession {
	pkgs := map[string]string{}
	for _, im := range prelude.Imports {
		pkgs[im.Name] = im.Path
	}
	pkgs["iter"] = "iter"
	return &goldenSession{
		fset:  token.NewFileSet(),
		tc:    typecheck.NewSession(universe(), func() map[string]string { return pkgs }),
		funcs: map[string]*ast.FuncDecl{},
		pkgs:  pkgs,
	}
}

func (s *goldenSession) Func(key string) *ast.FuncDecl      { return s.funcs[key] }
func (s *goldenSession) Copies() map[string]Copy            { return nil }
func (s *goldenSession) Escaped() map[string]bool           { return nil }
func (s *goldenSession) Funcs() []string                    { return nil }
func (s *goldenSession) KeepsYield() bool                   { return false }
func (s *goldenSession) NestedGlobals() map[string]bool     { return nil }
func (s *goldenSession) LiteralAsserts() map[string]string  { return nil }
func (s *goldenSession) Instances() map[string]*types.Named { return nil }

func (s *goldenSession) InstanceTag(string) string { return "" }

// run types a cell; with a pass, it rewrites it by that pass and returns
// the result as source.
func (s *goldenSession) run(t *testing.T, src string, p *Pass) string {
	t.Helper()
	pc, err := cell.Parse(s.fset, "cell", src)
	if err != nil {
		t.Fatal(err)
	}
	pc.Hoist(func(ast.Node) bool { return false }, func(string) bool { return false })
	if pc.Imports != nil {
		for _, is := range pc.Imports.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			s.pkgs[typecheck.ImportName(path)] = path
		}
	}
	var tc typecheck.Cell
	if pc.Decls != nil {
		tc.Decls = pc.Decls.Decls
	}
	if pc.Stmts != nil {
		tc.Stmts = pc.Stmts.List
	}
	info := s.tc.Check(s.fset, tc)
	// The session learns the cell's names once it has run, as the
	// engine's does: passes see the earlier cells' (Info.Earlier).
	defer s.tc.Commit(info)
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				s.funcs[funcKey(fd)] = fd
			}
		}
	}
	if p == nil {
		return ""
	}
	c := &Cell{Cell: pc, Fset: s.fset, Types: info, Session: s}
	passes := []Pass{*p}
	for _, q := range Passes {
		if slices.Contains(p.After, q.Name) {
			passes = append([]Pass{q}, passes...)
		}
	}
	if err := Rewrite(c, passes); err != nil {
		return "!! " + err.Error() + "\n"
	}
	var b strings.Builder
	if len(c.Before) > 0 {
		b.WriteString("// Before:\n")
		for _, st := range c.Before {
			b.WriteString(ExprString(st) + "\n")
		}
		b.WriteString("// Then:\n")
	}
	var decls []ast.Decl
	if pc.Decls != nil {
		decls = pc.Decls.Decls
	}
	for _, d := range append(decls, c.Insts...) {
		b.WriteString(ExprString(d) + "\n")
	}
	if pc.Stmts != nil {
		for _, st := range pc.Stmts.List {
			b.WriteString(ExprString(st) + "\n")
		}
	}
	return b.String()
}

func funcKey(d *ast.FuncDecl) string {
	if d.Recv != nil && len(d.Recv.List) > 0 {
		t := d.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			return id.Name + "." + d.Name.Name
		}
	}
	return d.Name.Name
}
