package engine

import (
	"go/ast"
	"go/types"
	"slices"

	"grundy/engine/compat"
)

// constBreaks refuses a cell that declares a constant again with a value
// an earlier function or method using it cannot take, as Go would refuse
// the file: const Big = 200 under func f() int8 { return Big } (an
// overflow), a float where an integer is compared, a duplicate switch
// case, a negative index. The functions are compiled again with the new
// value (runDecls), and yaegi v0.16.1 compiled those without a word and
// ran them with it (f() said -56). The oracle checks their text with the
// cell's declarations; an error in one refuses the cell before anything
// changes, naming it.
func (it *Interp) constBreaks(pc *parsedCell) error {
	if pc.Decls == nil {
		return nil
	}
	consts := it.redeclaredConsts(pc.Decls)
	if len(consts) == 0 {
		return nil
	}
	declared, _ := cellNames(pc)
	var users []*ast.FuncDecl
	for _, key := range sortedKeys(it.funcs) {
		fd := it.funcs[key]
		if declared[key] || fd.text.text == "" || !it.dependsOn(fd, consts, nil) ||
			slices.ContainsFunc(pc.replayed, func(d *ast.FuncDecl) bool { return compat.FuncKey(d) == key }) {
			continue
		}
		if d := it.parseFunc(fd.text); d != nil {
			users = append(users, d)
		}
	}
	if len(users) == 0 {
		return nil
	}
	decls := pc.Decls.Decls
	pc.Decls.Decls = append(slices.Clone(decls), declsOf(users)...)
	it.check(pc)
	errs := it.info.Errors
	pc.Decls.Decls = decls
	it.check(pc)
	for _, err := range errs {
		te, ok := err.(types.Error)
		if !ok {
			continue
		}
		for _, d := range users {
			if d.Pos() <= te.Pos && te.Pos < d.End() {
				return cannotApply("func " + compat.FuncKey(d) + " no longer compiles: " + te.Msg)
			}
		}
	}
	return nil
}
