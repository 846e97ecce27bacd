package engine

import (
	"sync"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/prelude"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"
)

// typeUniverse is every package a cell can import, as the type oracle sees
// it: the symbol tables the interpreter is given and the engine's source
// packages. One per process: the native code behind it never changes.
var typeUniverse = sync.OnceValue(func() *typecheck.Universe {
	sources := map[string][]string{}
	for _, p := range prelude.Packages() {
		for _, f := range p.Files {
			sources[p.Path] = append(sources[p.Path], f.Src)
		}
	}
	return typecheck.NewUniverse(sources, stdlib.Symbols, symbols.Symbols)
})

// check types the cell before anything rewrites it: the rewriter's type
// questions are answered from it.info.
func (it *Interp) check(pc *parsedCell) {
	var c typecheck.Cell
	if pc.Decls != nil {
		c.Decls = pc.Decls.Decls
	}
	if pc.Early != nil {
		c.Stmts = append(c.Stmts, pc.Early.List...)
	}
	if pc.Stmts != nil {
		c.Stmts = append(c.Stmts, pc.Stmts.List...)
	}
	it.info = it.tc.Check(it.fset, c)
}
