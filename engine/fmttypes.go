package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strconv"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
)

// declareTypes tells the session's printer (grundyrt's Types) about the
// types cells declared: how Go names each and its fields, the interpreter's
// reflect type for it, and closures calling its fmt methods. fmt then
// prints values of these types as Go does wherever it meets them, in an
// interface too, where the oracle could not say their types (see compat's
// fmtArgs). The declarations go first in the cell's file f, as
// package-level variables, so that they are made before the cell's own
// variables are initialised; a type is declared again when its methods
// change. It returns what it declared, for typesDeclared once f compiled.
func (it *Interp) declareTypes(f *ast.File) map[string]string {
	var specs []ast.Spec
	keys := map[string]string{}
	for _, name := range it.typeNames(f) {
		n := it.namedType(name)
		if n == nil || n.TypeParams().Len() > 0 {
			continue
		}
		args := []string{strconv.Quote(compat.FmtDesc(n)), "(*" + name + ")(nil)"}
		args = append(args, compat.CellMethods(n, name)...)
		args = append(args, compat.CellMethodNames(n)...)
		src := fmt.Sprintf("%s.%s(%s)", prelude.Runtime, prelude.RTDeclare, strings.Join(args, ", "))
		if it.declared[name] == src {
			continue
		}
		e, err := parser.ParseExpr(src)
		if err != nil {
			if os.Getenv("GRUNDY_DEBUG") != "" {
				fmt.Fprintln(os.Stderr, "grundy debug: declaring", name, "to the printer:", err)
			}
			continue
		}
		compat.AtPos(e, f.Package)
		it.declareSeq++
		v := fmt.Sprintf("%sDeclared%d", prelude.Temp, it.declareSeq)
		specs = append(specs, &ast.ValueSpec{Names: []*ast.Ident{{Name: v, NamePos: f.Package}}, Values: []ast.Expr{e}})
		keys[name] = src
	}
	if len(specs) == 0 {
		return nil
	}
	decl := &ast.GenDecl{TokPos: f.Package, Tok: token.VAR, Lparen: f.Package, Specs: specs, Rparen: f.Package}
	f.Decls = append([]ast.Decl{decl}, f.Decls...)
	return keys
}

// typesDeclared records what declareTypes declared, once it ran.
func (it *Interp) typesDeclared(keys map[string]string) {
	for name, src := range keys {
		it.declared[name] = src
	}
}

// typeNames are the session's types (with those f declares), by name.
func (it *Interp) typeNames(f *ast.File) []string {
	names := map[string]bool{}
	for name := range it.types {
		names[name] = true
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok {
			for _, sp := range gd.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					names[ts.Name.Name] = true
				}
			}
		}
	}
	return sortedKeys(names)
}

// namedType is the oracle's type a cell declared under name: the running
// cell's, else the session's.
func (it *Interp) namedType(name string) *types.Named {
	var obj types.Object
	if it.info != nil && it.info.Pkg != nil {
		obj = it.info.Pkg.Scope().Lookup(name)
	}
	if obj == nil {
		obj = it.tc.Lookup(name)
	}
	tn, ok := obj.(*types.TypeName)
	if !ok || tn.IsAlias() {
		return nil
	}
	n, _ := tn.Type().(*types.Named)
	return n
}
