// Package docextract turns Go source into the signature and doc comment
// of each exported symbol, keyed as inspect looks them up:
// "importpath.Name", "importpath.Type.Method", and the bare import path for
// the package doc. The generator uses it at build time for the library; the
// engine uses it at run time for Go's standard library from GOROOT.
package docextract

import (
	"bytes"
	"go/ast"
	"go/doc"
	"go/printer"
	"go/token"
	"strings"
)

// Entry is one documented symbol.
type Entry struct {
	Kind string // package, func, method, type, var or const
	Sig  string // the declaration as source, without body
	Doc  string // the doc comment's text
}

// Package adds to all the entries of the package made of files (parsed with
// comments, test files excluded).
func Package(fset *token.FileSet, files []*ast.File, importPath string, all map[string]Entry) error {
	// Package builtin documents lower-case predeclared names.
	var mode doc.Mode
	if importPath == "builtin" {
		mode = doc.AllDecls
	}
	pkg, err := doc.NewFromFiles(fset, files, importPath, mode)
	if err != nil {
		return err
	}
	all[importPath] = Entry{Kind: "package", Sig: "package " + pkg.Name + ` // import "` + importPath + `"`, Doc: pkg.Doc}

	values := func(vs []*doc.Value, kind string) {
		for _, v := range vs {
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				specDoc := v.Doc
				if vs.Doc != nil {
					specDoc = vs.Doc.Text()
				} else if vs.Comment != nil && specDoc == "" {
					specDoc = vs.Comment.Text()
				}
				for _, n := range vs.Names {
					if !n.IsExported() && mode == 0 {
						continue
					}
					all[importPath+"."+n.Name] = Entry{Kind: kind, Sig: source(fset, v.Decl), Doc: specDoc}
				}
			}
		}
	}
	funcs := func(fs []*doc.Func, prefix string) {
		for _, f := range fs {
			decl := *f.Decl
			decl.Body = nil
			decl.Doc = nil
			kind := "func"
			if f.Recv != "" {
				kind = "method"
			}
			all[prefix+f.Name] = Entry{Kind: kind, Sig: source(fset, &decl), Doc: f.Doc}
		}
	}
	values(pkg.Consts, "const")
	values(pkg.Vars, "var")
	funcs(pkg.Funcs, importPath+".")
	for _, t := range pkg.Types {
		decl := *t.Decl
		decl.Doc = nil
		all[importPath+"."+t.Name] = Entry{Kind: "type", Sig: source(fset, &decl), Doc: t.Doc}
		values(t.Consts, "const")
		values(t.Vars, "var")
		funcs(t.Funcs, importPath+".")
		funcs(t.Methods, importPath+"."+t.Name+".")
		interfaceMethods(fset, t, importPath, all)
	}
	return nil
}

// interfaceMethods documents an interface's methods as if declared on it,
// so inspect of g.Followers finds them when g's static type is the
// interface.
func interfaceMethods(fset *token.FileSet, t *doc.Type, importPath string, all map[string]Entry) {
	for _, spec := range t.Decl.Specs {
		ts, ok := spec.(*ast.TypeSpec)
		if !ok || ts.Name.Name != t.Name {
			continue
		}
		it, ok := ts.Type.(*ast.InterfaceType)
		if !ok || it.Methods == nil {
			continue
		}
		for _, m := range it.Methods.List {
			ft, ok := m.Type.(*ast.FuncType)
			if !ok {
				continue // an embedded interface or a type constraint
			}
			d := ""
			if m.Doc != nil {
				d = m.Doc.Text()
			} else if m.Comment != nil {
				d = m.Comment.Text()
			}
			for _, n := range m.Names {
				if !n.IsExported() {
					continue
				}
				sig := "func (" + t.Name + ") " + n.Name + strings.TrimPrefix(source(fset, ft), "func")
				all[importPath+"."+t.Name+"."+n.Name] = Entry{Kind: "method", Sig: sig, Doc: d}
			}
		}
	}
}

func source(fset *token.FileSet, node any) string {
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, fset, node); err != nil {
		return ""
	}
	return b.String()
}
