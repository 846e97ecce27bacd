package engine

import (
	"go/ast"
	"slices"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/compat"
)

// Typed copies of generic functions. Inside a generic function the
// interpreter compares values of a comparable type parameter, and keys
// maps by them, as it compares what it keeps them in: bound to a cell's
// interface, or to any in a session with boxed types, equal values were
// unequal (Contains[any], Count[Move] counted none of two equal moves).
// And it has the underlying type of a cell type on a basic type, array,
// slice or map bound to a type parameter: reflect.TypeOf(v) said uint8
// for a Heap, and a []T printed its elements without their String
// (basedTypes refused such instances); and it took a value without J's
// methods for a J in case T: of f[J]. For such an instance
// (compat.CellCopies) the cell declares a copy of the function with the
// type arguments written in, parsed from the text the cell wrote it in,
// and calls it instead: the oracle types the copy with the cell, and the
// passes rewrite it as the cell's own code, comparing the values inside
// the wrappers and naming the types. A copy's generic calls are instances
// too, copied in the next round (a recursive function calls its own
// copy). The session keeps which copies it made, so a cell that declares
// the function again declares them again; another cell calls the copy an
// earlier one made.

// cellCopy is a copy the session made: the function and its type
// arguments as source.
type cellCopy struct {
	fn    string
	targs []string
	epoch int // the session's typeEpoch when it was declared
}

// cellCopies declares the copies pc's instances need (see above) and
// calls them, typing the cell again; where a copy does not type, the
// cell is left as it was (comparableinstances then refuses the instance).
func (it *Interp) cellCopies(pc *parsedCell) {
	made := map[string]bool{}
	var again []ast.Decl
	for _, d := range cellDecls(pc) {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams == nil || slices.Contains(pc.replayed, fd) {
			continue
		}
		for _, name := range sortedKeys(it.cellCopiesMade) {
			if cp := it.cellCopiesMade[name]; cp.fn == fd.Name.Name && !made[name] {
				// Declared again: so are its copies.
				if cd := it.addCellCopy(pc, name, cp); cd != nil {
					made[name] = true
					again = append(again, cd)
				}
			}
		}
	}
	if len(again) > 0 && !it.typesWith(pc, again, func() {}) {
		return
	}
	// A copy an earlier cell declared and ran stands (its function is not
	// declared again here, above) while no cell has declared types or
	// methods since: declared again, it would be another function, and a
	// literal, a function value or a goroutine made before would go on
	// calling the earlier one (the engine noted that, of a function the
	// user never declared again). After types or methods, it is declared
	// again, to see them (a method calling has[fmt.Stringer] of an
	// earlier cell took a later C with String for one without).
	for name, cp := range it.cellCopiesMade {
		if !made[name] && it.funcs[name] != nil && cp.epoch == it.typeEpoch {
			made[name] = true
		}
	}
	failed := map[string]bool{}
	for range 4 {
		cc := &compat.Cell{Cell: pc.Cell, Fset: it.fset, Types: it.info, Session: compatSession{it}}
		var want []compat.CellCopy
		for _, r := range cc.CellCopies() {
			if !failed[r.Name] {
				want = append(want, r)
			}
		}
		if len(want) == 0 {
			return
		}
		if it.tryCopies(pc, want, made) {
			continue
		}
		// One that does not type (f[myint] of a type switch with case T
		// and case myint: a duplicate case) leaves the others be: each
		// copy on its own.
		typed := false
		for _, name := range copyNames(want) {
			one := slices.DeleteFunc(slices.Clone(want), func(r compat.CellCopy) bool { return r.Name != name })
			if it.tryCopies(pc, one, made) {
				typed = true
			} else {
				failed[name] = true
			}
		}
		if !typed {
			return
		}
	}
}

// tryCopies declares the copies rs call for (those not made yet) and
// calls them, typing the cell again; it reports whether that typed (else
// pc is as it was).
func (it *Interp) tryCopies(pc *parsedCell, rs []compat.CellCopy, made map[string]bool) bool {
	var added []ast.Decl
	to := map[*ast.Ident]string{}
	for _, r := range rs {
		if !made[r.Name] {
			cd := it.addCellCopy(pc, r.Name, cellCopy{fn: r.Func, targs: r.TypeArgs})
			if cd == nil {
				continue
			}
			made[r.Name] = true
			added = append(added, cd)
		}
		to[r.ID] = r.Name
	}
	if len(to) == 0 {
		return false
	}
	if !it.typesWith(pc, added, callCopies(pc, to)) {
		for _, d := range added {
			delete(made, d.(*ast.FuncDecl).Name.Name)
		}
		return false
	}
	return true
}

// copyNames are the names of the copies rs call for, in order.
func copyNames(rs []compat.CellCopy) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Name) {
			out = append(out, r.Name)
		}
	}
	return out
}

// typesWith types pc again with the copies added and reports whether
// that found no more errors than before; if it did, it takes them out,
// with undo, and types pc as it was.
func (it *Interp) typesWith(pc *parsedCell, added []ast.Decl, undo func()) bool {
	errs := len(it.info.Errors)
	it.check(pc)
	if len(it.info.Errors) <= errs {
		return true
	}
	undo()
	pc.Decls.Decls = slices.DeleteFunc(pc.Decls.Decls, func(d ast.Decl) bool { return slices.Contains(added, d) })
	for _, d := range added {
		delete(it.cellCopiesMade, d.(*ast.FuncDecl).Name.Name)
	}
	it.check(pc)
	return false
}

// cellDecls are pc's declarations.
func cellDecls(pc *parsedCell) []ast.Decl {
	if pc.Decls == nil {
		return nil
	}
	return pc.Decls.Decls
}

// addCellCopy declares in pc the copy name of cp.fn with cp.targs
// written in, from the text of the function this cell or the session
// declares, and notes it in the session; it returns the copy, or nil.
func (it *Interp) addCellCopy(pc *parsedCell, name string, cp cellCopy) *ast.FuncDecl {
	fd := it.parseFunc(it.genericSource(cp.fn))
	if fd == nil || fd.Type.TypeParams == nil || !compat.TypedCopy(fd, name, cp.targs) {
		return nil
	}
	if pc.Decls == nil {
		pc.Decls = &ast.File{Name: ast.NewIdent("main"), Package: fd.Pos()}
	}
	pc.Decls.Decls = append(pc.Decls.Decls, fd)
	if it.cellCopiesMade == nil {
		it.cellCopiesMade = map[string]cellCopy{}
	}
	cp.epoch = it.typeEpoch
	it.cellCopiesMade[name] = cp
	return fd
}

// genericSource is the text of the generic function fn as a cell wrote
// it: this cell (noteSources kept it), or the one that declared it last.
func (it *Interp) genericSource(fn string) funcSource {
	if src, ok := it.cellGenerics[fn]; ok {
		return src
	}
	if fd := it.funcs[fn]; fd != nil {
		return fd.generic
	}
	return funcSource{}
}

// callCopies makes the function names in pc that to maps (F, or F[T] with
// its type arguments) the copies' names, and returns what undoes it.
func callCopies(pc *parsedCell, to map[*ast.Ident]string) (undo func()) {
	was := map[ast.Node]ast.Node{} // each copy's name -> what it replaced
	each := func(f func(n ast.Node)) {
		for _, d := range cellDecls(pc) {
			f(d)
		}
		if pc.Stmts != nil {
			f(pc.Stmts)
		}
	}
	each(func(n ast.Node) {
		astutil.Apply(n, nil, func(c *astutil.Cursor) bool {
			var id *ast.Ident
			switch x := c.Node().(type) {
			case *ast.Ident:
				id = x
			case *ast.IndexExpr:
				id, _ = x.X.(*ast.Ident)
			case *ast.IndexListExpr:
				id, _ = x.X.(*ast.Ident)
			}
			name, ok := to[id]
			if !ok || c.Name() == "X" && isIndexed(c.Parent()) {
				return true
			}
			cp := &ast.Ident{NamePos: id.Pos(), Name: name}
			was[cp] = c.Node()
			c.Replace(cp)
			return true
		})
	})
	return func() {
		each(func(n ast.Node) {
			astutil.Apply(n, nil, func(c *astutil.Cursor) bool {
				if old, ok := was[c.Node()]; ok {
					c.Replace(old)
				}
				return true
			})
		})
	}
}

// isIndexed reports whether n is F[T] or F[K, V].
func isIndexed(n ast.Node) bool {
	switch n.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}
