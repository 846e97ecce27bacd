package engine

import (
	"errors"
	"fmt"
	"go/types"
	"io"
	"os"
	"regexp"
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
	return typecheck.NewUniverse(prelude.Sources(), prelude.RuntimeTypes(), stdlib.Symbols, symbols.Symbols).WithGeneric(prelude.Generic()).WithHelpers(prelude.GenericStd)
})

// check types the cell before anything rewrites it: the rewriter's type
// questions are answered from it.info.
func (it *Interp) check(pc *parsedCell) {
	c := typecheck.Cell{Src: pc.Src}
	if pc.Decls != nil {
		c.Decls = pc.Decls.Decls
	}
	if pc.Stmts != nil {
		c.Stmts = append(c.Stmts, pc.Stmts.List...)
	}
	it.info = it.tc.Check(it.fset, c)
	if len(it.info.Errors) > 0 {
		debugLog("GRUNDY_ORACLE_LOG", func(w io.Writer) {
			for _, e := range it.info.Errors {
				fmt.Fprintln(w, e)
			}
		})
	}
}

// debugLog appends what write writes to the file the environment
// variable env names, if it names one: aids for the engine's developers
// (README, the differential harness).
func debugLog(env string, write func(io.Writer)) {
	path := os.Getenv(env)
	if path == "" {
		return
	}
	if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		write(f)
		f.Close()
	}
}

// trailShowOf says how a trailing expression of type t is shown.
func trailShowOf(t types.Type) trailShow {
	if t == nil {
		return showUnknown
	}
	if tu, ok := t.(*types.Tuple); ok {
		if tu.Len() == 0 {
			return showNone
		}
		for i := range tu.Len() {
			if mayHoldCellValue(tu.At(i).Type(), map[types.Type]bool{}) {
				return showCell
			}
		}
		return showNative
	}
	if mayHoldCellValue(t, map[types.Type]bool{}) {
		return showCell
	}
	return showNative
}

// mayHoldCellValue reports whether a value of type t can be, or hold, a
// value of a type a cell declared, whose methods only interpreted code
// sees: a cell type, an interface, or a composite of them.
func mayHoldCellValue(t types.Type, seen map[types.Type]bool) bool {
	t = types.Unalias(t)
	if seen[t] {
		return false
	}
	seen[t] = true
	if typecheck.IsCellType(t) {
		return true
	}
	switch u := t.(type) {
	case *types.Basic, *types.Signature:
		return false
	case *types.Named:
		// A library's type: its methods are native; but a library's
		// interface (games.Game, fmt.Stringer) may hold a cell's value,
		// and so may a library struct's field of one (io.LimitedReader's R).
		return types.IsInterface(u) || typecheck.LibraryIfaceHolder(u)
	case *types.Pointer:
		return mayHoldCellValue(u.Elem(), seen)
	case *types.Slice:
		return mayHoldCellValue(u.Elem(), seen)
	case *types.Array:
		return mayHoldCellValue(u.Elem(), seen)
	case *types.Chan:
		return mayHoldCellValue(u.Elem(), seen)
	case *types.Map:
		return mayHoldCellValue(u.Key(), seen) || mayHoldCellValue(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if mayHoldCellValue(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	}
	return true // interfaces, type parameters
}

// earlierQualifier matches the package qualifier of a cell's type in a
// message of the oracle (main.Lost, *main.Illegal).
var earlierQualifier = regexp.MustCompile(`(^|[^\w.])main\.`)

// typeError is the cell's first type error (one where is true of; any
// for nil), as Go words it, when the type oracle found one; nil
// if it found none (or it is not at hand).
func (it *Interp) typeError(where func(types.Error) bool) *EvalError {
	if it == nil || it.info == nil {
		return nil
	}
	for _, te := range it.info.Errors {
		var tErr types.Error
		if !errors.As(te, &tErr) || tErr.Soft || tErr.Fset == nil {
			continue
		}
		if where != nil && !where(tErr) {
			continue
		}
		// (The oracle checks each cell in a package of its own: the
		// types of earlier cells come qualified, main.Lost, where Go
		// writes the package's own types without it.)
		msg := tErr.Fset.Position(tErr.Pos).String() + ": " + earlierQualifier.ReplaceAllString(tErr.Msg, "$1")
		return &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
	}
	return nil
}
