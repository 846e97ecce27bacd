package compat

import (
	"go/ast"
	"go/token"
)

// genericSelfCalls: a generic function that calls itself (func depth[T
// any](x T, n int) int { ... depth(x, n-1) ... }). yaegi v0.16.1 makes
// the instance's call of itself a child of the instance's own tree, and
// when a panic leaves an interpreted function it looks for the node that
// panicked by walking the trees around it (interp/run.go:134,
// originalExecNode), which does not stop on that cycle: a panic escaping
// such a function, recovered or not, recursed until the stack overflowed
// and the engine process died (c223). Two generic functions calling each
// other make no such cycle, so the function calls a twin of itself, which
// calls it back:
//
//	func depth[T any](x T, n int) int { ... _grundyRec_depth(x, n-1) ... }
//	func _grundyRec_depth[T any](x T, n int) int { ... depth(x, n-1) ... }
//
// It runs after the passes that rewrite the function (the twin is a copy
// of what they wrote), on the cell's top-level generic functions.
var genericSelfCalls = Pass{
	Name:     "genericselfcalls",
	Run:      runGenericSelfCalls,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"generic_recursion_panics"},
}

// RecTwin is the name of the twin of the generic function name (see
// genericSelfCalls).
func RecTwin(name string) string { return tempPrefix + "Rec_" + name }

func runGenericSelfCalls(c *Cell) {
	if c.Decls == nil {
		return
	}
	var out []ast.Decl
	for _, d := range c.Decls.Decls {
		out = append(out, d)
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams == nil || fd.Body == nil {
			continue
		}
		refs := selfRefs(fd)
		if len(refs) == 0 {
			continue
		}
		twin := cloneNode(fd, map[ast.Node]ast.Node{}).(*ast.FuncDecl)
		twin.Name = ident(RecTwin(fd.Name.Name), fd.Name.Pos())
		twin.Doc = nil
		for _, id := range refs {
			id.Name = RecTwin(fd.Name.Name)
		}
		// Before the function: yaegi v0.16.1 took a call of a later
		// declaration with written type arguments as no generic function
		// ("not a generic type").
		out = append(out[:len(out)-1], twin, fd)
	}
	c.Decls.Decls = out
}

// selfRefs are the names in fd's body that stand for fd itself: its name,
// not a selector's, a field's key or a name a declaration in the body
// shadows (a function that declares its own name inside is left alone).
func selfRefs(fd *ast.FuncDecl) []*ast.Ident {
	name := fd.Name.Name
	var refs []*ast.Ident
	shadowed := false
	for _, fl := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				shadowed = shadowed || id.Name == name
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && id.Name == name {
					refs = append(refs, id)
				}
				return true
			})
			return false
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && id.Name == name {
				ast.Inspect(n.Value, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && id.Name == name {
						refs = append(refs, id)
					}
					return true
				})
				return false
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name && n.Tok == token.DEFINE {
					shadowed = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				shadowed = shadowed || id.Name == name
			}
		case *ast.Field:
			for _, id := range n.Names {
				shadowed = shadowed || id.Name == name
			}
		case *ast.TypeSpec:
			shadowed = shadowed || n.Name.Name == name
		case *ast.Ident:
			if n.Name == name {
				refs = append(refs, n)
			}
		}
		return true
	})
	if shadowed {
		return nil
	}
	return refs
}
