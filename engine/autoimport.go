package engine

import (
	"go/ast"
	"go/token"
	"strconv"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// Standard packages a cell uses by name without importing them are
// imported for it, as goimports would (GoNB does the same): a Go
// programmer writes filepath.Join or template.Must and expects it to work.
// Only names that are nothing else in the cell or the session qualify.

// autoImport adds to the cell's imports the standard packages it names
// without importing them.
func (it *Interp) autoImport(pc *parsedCell) {
	var nodes []ast.Node
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			nodes = append(nodes, d)
		}
	}
	if pc.Stmts != nil {
		nodes = append(nodes, pc.Stmts)
	}
	bases, other := selectorBases(nodes...)
	if pc.Imports != nil {
		for _, d := range pc.Imports.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				for _, s := range gd.Specs {
					is := s.(*ast.ImportSpec)
					path, _ := strconv.Unquote(is.Path.Value)
					name := typecheck.ImportName(path)
					if is.Name != nil {
						name = is.Name.Name
					}
					other[name] = true
				}
			}
		}
	}
	var add []ast.Spec
	for _, name := range sortedKeys(bases) {
		if other[name] || it.pkgs[name] != "" {
			continue
		}
		if _, ok := it.globals[name]; ok {
			continue
		}
		if universe[name] {
			continue
		}
		path := prelude.StandardPackage(name)
		var at token.Pos
		if path == "" {
			// A standard package the interpreter leaves out (unsafe.Sizeof
			// without its import): imported at its first use, it is refused
			// there as its import is.
			if path = prelude.LeftOutPackage(name); path == "" {
				continue
			}
			at = bases[name]
		}
		add = append(add, &ast.ImportSpec{Path: &ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: strconv.Quote(path)}})
	}
	if len(add) == 0 {
		return
	}
	if pc.Imports == nil {
		pc.Imports = &ast.File{Name: ast.NewIdent("main")}
	}
	pc.Imports.Decls = append(pc.Imports.Decls, &ast.GenDecl{Tok: token.IMPORT, Specs: add, Lparen: 1})
}

// selectorBases finds the identifiers used as X in X.Sel, with where
// each is first used, and every other identifier.
func selectorBases(nodes ...ast.Node) (bases map[string]token.Pos, other map[string]bool) {
	bases = map[string]token.Pos{}
	other = map[string]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok {
					if _, seen := bases[id.Name]; !seen {
						bases[id.Name] = id.Pos()
					}
					return false
				}
			case *ast.Ident:
				other[x.Name] = true
			}
			return true
		})
	}
	return bases, other
}

// undefinedPackage finds a name n uses as a package that is nothing the
// session knows: what yaegi v0.16.1 crashes on in a type (var s nope.T).
func undefinedPackage(n ast.Node, it *Interp) (string, token.Pos) {
	if it == nil || n == nil {
		return "", token.NoPos
	}
	bases, other := selectorBases(n)
	for _, name := range sortedKeys(bases) {
		// (The engine's own package is imported for every cell, though
		// not listed among the packages cells may name.)
		if other[name] || it.pkgs[name] != "" || universe[name] || name == prelude.Runtime {
			continue
		}
		if _, ok := it.globals[name]; ok {
			continue
		}
		return name, bases[name]
	}
	return "", token.NoPos
}

// universe are the predeclared names a selector may start with (a cell
// cannot mean a package by them).
var universe = map[string]bool{"true": true, "false": true, "nil": true, "iota": true}
