package compat

import (
	"go/ast"
	"go/token"
)

// methodOrder: the methods of a cell's generic type are declared right
// after the type, before the cell's other functions. yaegi v0.16.1 makes
// an instance of a generic type with the methods declared so far
// (interp/type.go:1130, genType, over lt.method): a function declared
// before the methods whose signature names an instance (func flip(p
// Pair[int, int])) made Pair[int, int] without them, and a method making
// another instance (Pair[A, A] in a method of Pair[A, B]) then failed with
// "undefined type for A" (interp/generic.go:98). Go does not care in
// which order a package declares its functions.
var methodOrder = Pass{
	Name:     "methodorder",
	Run:      runMethodOrder,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"generics_method_after_instance_func"},
}

func runMethodOrder(c *Cell) {
	if c.Decls == nil {
		return
	}
	generic := map[string]bool{}
	for _, d := range c.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); ts.TypeParams != nil {
					generic[ts.Name.Name] = true
				}
			}
		}
	}
	methods := map[string][]ast.Decl{}
	var rest []ast.Decl
	for _, d := range c.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
			if t := recvName(fd.Recv.List[0].Type); generic[t] {
				methods[t] = append(methods[t], d)
				continue
			}
		}
		rest = append(rest, d)
	}
	if len(methods) == 0 {
		return
	}
	out := make([]ast.Decl, 0, len(c.Decls.Decls))
	for _, d := range rest {
		out = append(out, d)
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				out = append(out, methods[sp.(*ast.TypeSpec).Name.Name]...)
			}
		}
	}
	c.Decls.Decls = out
}
