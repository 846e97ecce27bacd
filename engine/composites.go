package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"strconv"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
	"grundy/engine/prelude/grundyrt"
)

// hideComposites declares the hidden composite types the checked cell
// needs (a []Celsius put in an any: type _grundyComposite1 []Celsius, see
// compat's HideComposites), rewrites the cell for them and checks it
// again. A composite an earlier cell hid is hidden by the same type, so
// that a value one cell stored is asserted by the next; a composite of
// types a cell declared again is a new one. Where the cell checks with
// more errors with them than without, the cell is left as it was, and
// basedTypes refuses what it would have hidden.
func (it *Interp) hideComposites(pc *parsedCell) {
	if pc.Decls == nil && pc.Stmts == nil {
		return
	}
	errs := len(it.info.Errors)
	var specs []ast.Spec
	made := map[string]types.Type{}
	hide := func(t types.Type) ast.Expr {
		if !compat.Hideable(t) {
			return nil
		}
		name := it.hiddenComposite(t, made)
		if name == "" {
			src, ok := it.info.TypeString(t)
			x, err := parser.ParseExpr(src)
			if !ok || err != nil {
				return nil
			}
			it.compositeSeq++
			name = fmt.Sprintf("%s%d", prelude.HiddenComposite, it.compositeSeq)
			made[name] = t
			specs = append(specs, &ast.TypeSpec{Name: ast.NewIdent(name), Type: x})
		}
		return ast.NewIdent(name)
	}
	cc := &compat.Cell{Cell: pc.Cell, Fset: it.fset, Types: it.info, Session: compatSession{it}}
	undo := compat.HideComposites(cc, hide)
	if undo == nil {
		return
	}
	info := it.info
	added := len(specs) > 0
	newDecls := pc.Decls == nil
	if added {
		if newDecls {
			pos := pc.Stmts.Lbrace
			pc.Decls = &ast.File{Package: pos, Name: &ast.Ident{Name: "main", NamePos: pos}}
		}
		pos := pc.Decls.Package
		for _, s := range specs {
			compat.AtPos(s.(*ast.TypeSpec), pos)
		}
		pc.Decls.Decls = append(pc.Decls.Decls, &ast.GenDecl{TokPos: pos, Tok: token.TYPE, Specs: specs})
	}
	it.check(pc)
	if len(it.info.Errors) <= errs {
		return
	}
	if os.Getenv("GRUNDY_DEBUG") != "" {
		fmt.Fprintln(os.Stderr, "grundy debug: hidden composites:", it.info.Errors[0])
	}
	undo()
	if added {
		if newDecls {
			pc.Decls = nil
		} else {
			pc.Decls.Decls = pc.Decls.Decls[:len(pc.Decls.Decls)-1]
		}
	}
	it.info = info
}

// hiddenComposite is the name of the hidden composite type of t that an
// earlier cell or made declared, or "".
func (it *Interp) hiddenComposite(t types.Type, made map[string]types.Type) string {
	for name, u := range made {
		if types.Identical(u, t) {
			return name
		}
	}
	for _, name := range it.tc.Names() {
		if !strings.HasPrefix(name, prelude.HiddenComposite) {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(name, prelude.HiddenComposite)); err == nil && n > it.compositeSeq {
			it.compositeSeq = n
		}
		if tn, ok := it.tc.Lookup(name).(*types.TypeName); ok && types.Identical(tn.Type().Underlying(), t) {
			return name
		}
	}
	return ""
}

// hiddenName is a hidden composite type's name in a message.
// (go/types says "variable of slice type T" of a named type T, and
// "variable of type []Heap" of the composite.)
var hiddenName = regexp.MustCompile(`(?:(?:slice|array|map) type )?(?:main\.)?` + prelude.HiddenComposite + `[0-9]+`)

// unhideNames writes the composites of the hidden composite types a
// compile error names in their place, as Go names them ([]Heap), and
// the types declared in functions by their own names.
func (it *Interp) unhideNames(ee *EvalError) {
	unhide := func(msg string) string {
		return hiddenName.ReplaceAllStringFunc(msg, func(s string) string {
			name := s[strings.Index(s, prelude.HiddenComposite):]
			tn, ok := it.tc.Lookup(name).(*types.TypeName)
			if !ok {
				return s
			}
			kind := ""
			if strings.Contains(s, " type ") {
				kind = "type "
			}
			return kind + types.TypeString(tn.Type().Underlying(), func(p *types.Package) string {
				if p.Path() == "main" {
					return ""
				}
				return p.Name()
			})
		})
	}
	ee.Value = grundyrt.LocalTypeNames(unhide(ee.Value))
	for i, l := range ee.Traceback {
		ee.Traceback[i] = grundyrt.LocalTypeNames(unhide(l))
	}
}
