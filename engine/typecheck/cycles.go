package typecheck

import (
	"go/ast"
	"go/token"
	"go/types"
)

// parenEarlierTypes writes, for the check only, a type declaration's type
// that is an earlier cell's type name (type Grundy Nimber, Nimber declared
// before) in parentheses: type Grundy (Nimber), the same type. go/types
// (go1.26, cycles.go: directCycles) follows a declaration's type from name
// to name through the package's scope and takes each name it finds there
// for one the check declares: the earlier cell's Nimber, inserted in the
// scope by insertUses, has no declaration in the check, and the checker
// panicked with a nil dereference, so every cell declaring a type on an
// earlier cell's type failed. A parenthesised type is not a name, and the
// walk stops there (an earlier cell's type is not part of a cycle the
// cell can make).
func (s *Session) parenEarlierTypes(decls []ast.Decl, declared map[string]bool) (restore func()) {
	var specs []*ast.TypeSpec
	for _, d := range decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			ts, ok := sp.(*ast.TypeSpec)
			if !ok {
				continue
			}
			id, ok := ts.Type.(*ast.Ident)
			if !ok || declared[id.Name] {
				continue
			}
			if _, ok := s.objs[id.Name].(*types.TypeName); !ok {
				continue
			}
			ts.Type = &ast.ParenExpr{Lparen: id.Pos(), X: id, Rparen: id.End()}
			specs = append(specs, ts)
		}
	}
	return func() {
		for _, ts := range specs {
			ts.Type = ts.Type.(*ast.ParenExpr).X
		}
	}
}
