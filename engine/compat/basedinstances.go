package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"grundy/engine/prelude"
)

// instances refuses an instantiation of a generic function or type whose
// code prints or inspects its values, with a based type argument: inside,
// the interpreter has the underlying type (any(v) is the bare value,
// whatever the methods), and only a value with an fmt method comes to fmt
// in a wrapper that names its type.
func (b basedCheck) instances() {
	c := b.c
	for _, id := range c.instanceIDs() {
		obj := c.Types.ObjectOf(id)
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
			continue
		}
		var bodies []*ast.BlockStmt
		what := "function"
		switch o := obj.(type) {
		case *types.Func:
			if o.Type().(*types.Signature).Recv() != nil {
				continue
			}
			bodies = append(bodies, c.funcBody(o.Name(), ""))
		case *types.TypeName:
			n, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			what = "type"
			for i := range n.NumMethods() {
				bodies = append(bodies, c.funcBody(n.Method(i).Name(), o.Name()))
			}
		default:
			continue
		}
		b.instance(id, c.Types.Instances[id].TypeArgs, what, bodies)
		if c.err != nil {
			return
		}
	}
}

// instance refuses the instantiation id[targs] when a based type
// argument would show wrong in bodies, the generic function's or type's
// code (see instances).
func (b basedCheck) instance(id *ast.Ident, targs *types.TypeList, what string, bodies []*ast.BlockStmt) {
	c := b.c
	prints, inspects, names, composites := false, false, false, false
	var copied map[string]bool
	if what == "function" {
		copied = c.boxedParams(id.Name, typeList(targs))
	}
	for _, body := range bodies {
		if body == nil {
			continue
		}
		p, i := observesTypes(body, copied)
		prints, inspects, names = prints || p, inspects || i, names || namesTypes(body)
		composites = composites || p && c.printsParamComposites(body)
	}
	for i := range targs.Len() {
		ta := targs.At(i)
		n := basedIn(ta)
		if n == nil {
			continue
		}
		named, isNamed := types.Unalias(ta).(*types.Named)
		// A type on a basic type without fmt methods prints as its
		// underlying type's value does, but for %T; one with them comes
		// to fmt in a wrapper naming them, but not inside a composite
		// ([]T printed [3] for a []Heap, Go [h3]).
		if !inspects && (!prints || isNamed && boxed(named) && (hasFmtMethod(named) && !composites || !hasFmtMethod(named) && !names)) {
			continue
		}
		remedy := "wrap the value in a struct (type " + n.Obj().Name() + "s struct{ V " + b.name(ta) + " })"
		if isNamed {
			remedy = "declare " + named.Obj().Name() + " as a struct (type " + named.Obj().Name() + " struct{ V " + b.name(named.Underlying()) + " })"
		}
		c.Fail(id.Pos(), "%s[%s]: inside the generic %s %s the interpreter sees %s as %s, so what it prints or asserts of its values could be wrong; write %s for %s, or %s",
			id.Name, b.name(ta), what, id.Name, an(b.name(ta)), an(b.name(erased(ta, map[types.Type]bool{}))), id.Name, b.name(ta), remedy)
		return
	}
}

// hasFmtMethod reports whether n has a method fmt calls (the interpreter
// hands fmt such a value in a wrapper with it).
func hasFmtMethod(n *types.Named) bool {
	for _, m := range []string{"String", "Error", "Format", "GoString"} {
		if obj, _, _ := types.LookupFieldOrMethod(n, true, n.Obj().Pkg(), m); obj != nil {
			return true
		}
	}
	return false
}

// funcBody is the body of the function named name (of the method of
// type recv, if not ""), declared by the cell or (as compiled) by an
// earlier one; nil if unknown.
func (c *Cell) funcBody(name, recv string) *ast.BlockStmt {
	key := name
	if recv != "" {
		key = recv + "." + name
	}
	if fd := c.funcDecl(key); fd != nil {
		return fd.Body
	}
	return nil
}

// observesTypes reports whether body may print its values (it calls fmt
// or log, or the printer the passes route fmt to) and whether it may
// inspect their types otherwise (reflect, encoding/json, assertions but
// those to the type parameters copied, which the function's copy checks
// by name: boxedParams). paramConv's conversions do neither.
func observesTypes(body *ast.BlockStmt, copied map[string]bool) (prints, inspects bool) {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if _, x, ok := paramConverted(n); ok {
			ast.Inspect(x, visit)
			return false
		}
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if !paramAssert(n, copied) {
				inspects = true
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				switch x.Name {
				case "fmt", "log", prelude.Runtime:
					prints = true
				case "reflect", "json":
					inspects = true
				}
			}
		}
		return !inspects
	}
	ast.Inspect(body, visit)
	return prints, inspects
}

// namesTypes reports whether body may print a value's type: a format
// with %T, or one fmt is given in a variable.
func namesTypes(body *ast.BlockStmt) bool {
	return contains(body, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			return n.Kind == token.STRING && strings.Contains(n.Value, "%T")
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || !isIdent(sel.X, "fmt") && !isIdent(sel.X, "log") && !isIdent(sel.X, prelude.Runtime) {
				return false
			}
			skip, ok := fmtArgStart[sel.Sel.Name]
			if !ok || skip == 0 || !strings.HasSuffix(sel.Sel.Name, "f") || len(n.Args) < skip {
				return false
			}
			_, lit := ast.Unparen(n.Args[skip-1]).(*ast.BasicLit)
			return !lit
		}
		return false
	})
}
