package engine

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
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
// fmtArgs). A type is declared again when its methods change.
func (it *Interp) declareTypes(ctx context.Context) {
	var stmts []string
	keys := map[string]string{}
	for _, name := range sortedKeys(it.types) {
		n := it.namedType(name)
		if n == nil || n.TypeParams().Len() > 0 {
			continue
		}
		args := []string{strconv.Quote(compat.FmtDesc(n)), "(*" + name + ")(nil)"}
		args = append(args, compat.FmtMethods(n, name)...)
		src := fmt.Sprintf("%s.%s(%s)", prelude.Runtime, prelude.RTDeclare, strings.Join(args, ", "))
		if it.declared[name] != src {
			stmts = append(stmts, src)
			keys[name] = src
		}
	}
	if len(stmts) == 0 {
		return
	}
	run := func(stmts []string) error {
		f, err := parser.ParseFile(it.fset, it.name, "package main;func main(){"+strings.Join(stmts, "\n")+"}", parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		_, err = it.compileRun(ctx, f.Decls[0].(*ast.FuncDecl).Body)
		return err
	}
	if err := run(stmts); err == nil {
		for name, src := range keys {
			it.declared[name] = src
		}
		return
	}
	// One at a time: a type the interpreter cannot name here (an
	// error) keeps the others.
	for name, src := range keys {
		if err := run([]string{src}); err == nil {
			it.declared[name] = src
		} else if os.Getenv("GRUNDY_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, "grundy debug: declaring", name, "to the printer:", err)
		}
	}
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
