package compat

import (
	"go/ast"
	"go/token"
	"slices"
)

// recoverOrder: a function or method whose body calls recover() is
// declared before the first of the cell's functions that names it. A
// function literal deferring a call of a function declared after the
// literal's function (func f() { func() { defer h(); panic("x") }() }
// with h below f) recovered nothing in yaegi v0.16.1: the call compiled
// before h was made reaches it through a value, whose frame is not the
// panicking one (interp/run.go, _recover reads f.anc), and the panic
// went on. Go does not care in which order a package declares its
// functions. A method is not moved before its type's declaration, nor a
// method of a generic type (see methodOrder).
var recoverOrder = Pass{
	Name:     "recoverorder",
	Run:      runRecoverOrder,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"recover_in_later_function"},
}

func runRecoverOrder(c *Cell) {
	if c.Decls == nil {
		return
	}
	decls := c.Decls.Decls
	typeAt := map[string]int{} // where the cell declares each type
	for i, d := range decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				typeAt[ts.Name.Name] = i
				if ts.TypeParams != nil {
					typeAt[ts.Name.Name] = len(decls) // (methodOrder's)
				}
			}
		}
	}
	for i := 0; i < len(decls); i++ {
		fd, ok := decls[i].(*ast.FuncDecl)
		if !ok || fd.Body == nil || !recovers(fd) {
			continue
		}
		lowest := 0
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			at, declared := typeAt[recvName(fd.Recv.List[0].Type)]
			if declared {
				lowest = at + 1
			}
		}
		for j := lowest; j < i; j++ {
			other, ok := decls[j].(*ast.FuncDecl)
			if !ok || !names(other, fd.Name.Name) {
				continue
			}
			decls = slices.Insert(slices.Delete(decls, i, i+1), j, ast.Decl(fd))
			break
		}
	}
	c.Decls.Decls = decls
}

// names reports whether fd's body has the identifier or selector name.
func names(fd *ast.FuncDecl, name string) bool {
	return fd.Body != nil && contains(fd.Body, false, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && id.Name == name
	})
}
