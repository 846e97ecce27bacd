package engine

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine/symbols/gen/extract"

	"grundy/engine/prelude"
)

// TestGenericStdAPIs: every generic function and type of the standard
// library (Go 1.18 to the module's go version) is either provided by the
// engine's own source packages or its helpers (prelude.GenericStd), or
// written as other code (rewrittenAPIs), or
// refused with a message, and the refusal table names nothing that does
// not exist.
func TestGenericStdAPIs(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	last, err := extract.LastMinor(root)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := extract.ReadAPI(strings.TrimSpace(string(out)), 18, last)
	if err != nil {
		t.Fatal(err)
	}
	provided := map[string]bool{}
	for _, p := range prelude.Packages() {
		for _, src := range p.Source {
			f, err := parser.ParseFile(token.NewFileSet(), src.Name, src.Src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						provided[p.Path+"."+d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							provided[p.Path+"."+ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	listed := map[string]bool{}
	for _, s := range syms {
		key := s.Path + "." + s.Name
		switch {
		case s.Path == "iter" || s.Path == "slices" || s.Path == "maps" || s.Path == "cmp":
			listed[key] = true
			if !provided[key] {
				t.Errorf("%s (Go 1.%d) is not in the engine's %s source", key, s.Minor, s.Path)
			}
		case s.Generic && extract.Usable(s.Path):
			listed[key] = true
			if _, ok := unavailableAPIs[key]; !ok && prelude.GenericStd[key] == "" && !rewrittenAPIs[key] {
				t.Errorf("%s (Go 1.%d, generic) is neither provided nor in unavailableAPIs", key, s.Minor)
			}
		}
	}
	for key := range unavailableAPIs {
		if !listed[key] {
			t.Errorf("unavailableAPIs has %s, which the api files do not list as generic", key)
		}
	}
}

// TestUnavailableAPIRefused: such a cell fails before any of it runs, with
// one line that names the API and what to write instead.
func TestUnavailableAPIRefused(t *testing.T) {
	it := newTestInterp(t)
	for _, c := range []struct{ cell, want string }{
		{"fmt.Println(\"ran\")\nrv := reflect.ValueOf(3)\nn, ok := reflect.TypeAssert[int](rv)\n_, _ = n, ok",
			"cell:3:10: reflect.TypeAssert (generic, Go 1.25) is not available in this engine; instead, write v.Interface().(T)"},
		{"import h \"hash/maphash\"\nfmt.Println(\"ran\")\nh.Comparable(h.MakeSeed(), 10)", "cell:3:1: h.Comparable (generic, Go 1.24) is not available"},
		{"import \"weak\"\nfunc f() weak.Pointer[int] { return weak.Make(new(int)) }", "cell:2:10: weak.Pointer (generic, Go 1.24)"},
		{"import \"weak\"\nfmt.Println(\"ran\")\nweak.Make(new(int))", "cell:3:1: weak.Make (generic, Go 1.24) is not available in this engine; instead, use an ordinary pointer"},
	} {
		rec := &recorder{}
		_, err := it.Execute(context.Background(), c.cell, rec)
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Name != "CompileError" || !strings.HasPrefix(ee.Value, c.want) || strings.Contains(ee.Value, "\n") {
			t.Errorf("%q: got %v, want a one-line CompileError starting %q", c.cell, err, c.want)
		}
		if rec.out() != "" {
			t.Errorf("%q ran before it was refused: %q", c.cell, rec.out())
		}
	}
}
