package compat

import (
	"go/ast"
	"go/parser"
)

// Typed copies of generic functions compared by wrappers: what the
// engine needs of compat to call an instance comparableInstances would
// refuse as a copy of the function with the type arguments written in
// (engine/comparecopies.go declares the copies in the cell before the
// oracle types it).

// CompareCopy is an instance of a generic function of the cells that
// comparableInstances would refuse, which the engine calls as a copy of
// the function with the type arguments written in, declared in the cell
// and so typed and rewritten as the cell's own code: there ifaceCompare
// and ifaceKeys compare the values inside the wrappers (Contains[any],
// Count[Move], Uniq[Shape]).
type CompareCopy struct {
	ID       *ast.Ident // the function's name where the cell instantiates it
	Func     string
	TypeArgs []string // as source
	Name     string   // the copy's
}

// CompareCopies are the instances the engine calls as copies (see
// CompareCopy): those of generic functions whose type arguments can be
// written at the cell's top level.
func (c *Cell) CompareCopies() []CompareCopy {
	var out []CompareCopy
	for _, w := range c.wrapperInstances() {
		if w.fn == nil {
			continue
		}
		cp := CompareCopy{ID: w.id, Func: w.fn.Name()}
		for i := range w.targs.Len() {
			s, ok := c.Types.TypeString(w.targs.At(i))
			if !ok {
				cp.TypeArgs = nil
				break
			}
			cp.TypeArgs = append(cp.TypeArgs, s)
		}
		if len(cp.TypeArgs) == w.targs.Len() {
			cp.Name = hashedName("Cmp_"+cp.Func, append([]string{cp.Func}, cp.TypeArgs...)...)
			out = append(out, cp)
		}
	}
	return out
}

// TypedCopy makes fd, a generic function as a cell wrote it, parsed anew
// for the copy, the function name with the type arguments targs (source)
// written in for its type parameters. It reports false if one does not
// parse.
func TypedCopy(fd *ast.FuncDecl, name string, targs []string) bool {
	params := typeParamNames(fd.Type.TypeParams)
	if len(params) != len(targs) {
		return false
	}
	subst := map[string]string{}
	for i, p := range params {
		subst[p] = targs[i]
	}
	fd.Name = ident(name, fd.Name.Pos())
	fd.Type.TypeParams = nil
	ok := true
	applyIn(fd, func(cur Cursor) bool {
		id, isIdent := cur.Node().(*ast.Ident)
		if !isIdent || subst[id.Name] == "" {
			return true
		}
		switch cur.Name() {
		case "Sel", "Names", "Name", "Label":
			return true // not a use of the type parameter
		}
		x, err := parser.ParseExpr(subst[id.Name])
		if err != nil {
			ok = false
			return false
		}
		cur.Replace(asOperand(AtPos(x, id.Pos())))
		return true
	})
	return ok
}
