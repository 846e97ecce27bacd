package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// nativeFuncValues: a function of a native package, or a method of a
// native type, with a parameter of an interface type, used as a value,
// not called (show := fmt.Sprint, enc := json.Marshal, logf :=
// l.Printf, template.FuncMap{"str": fmt.Sprint}). The passes help
// native functions with the values of cell types they are handed
// (fmtArgs describes them to the printer, jsonArgs calls their
// MarshalJSON, ...) where the cell calls them; called through a value,
// fmt printed the interpreter's box of a type on a basic type
// ({0xc000... {...}}), a struct's fields where Go calls its String, and
// json skipped MarshalJSON, silently. Such a value becomes the function
// literal that calls it, whose call the passes then see:
//
//	show := func(_grundyNF1 ...any) string { return fmt.Sprint(_grundyNF1...) }
//
// A method value binds its receiver where it is made, as Go's does:
//
//	logf := func(_grundyNR2 *log.Logger) func(string, ...any) { return func(...) { _grundyNR2.Printf(...) } }(l)
var nativeFuncValues = Pass{
	Name:     "nativefuncvalues",
	Run:      runNativeFuncValues,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"native_func_values"},
}

func runNativeFuncValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if call, ok := cur.Parent().(*ast.CallExpr); ok && cur.Name() == "Fun" && call.Fun == sel {
			return true
		}
		fn, ok := c.Types.ObjectOf(sel.Sel).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() == c.Types.Pkg.Path() {
			return true
		}
		sig, ok := c.Types.TypeOf(sel).(*types.Signature)
		if !ok || sig.TypeParams().Len() > 0 || !ifaceParams(sig, sig.Params().Len()) {
			return true
		}
		var recv ast.Expr
		selection := c.Types.Selections[sel]
		switch {
		case selection == nil && isPkgName(c.Types.ObjectOf(rootName(sel.X))):
		case selection != nil && selection.Kind() == types.MethodVal && !types.IsInterface(selection.Recv()) && !c.cellTypeIn(selection.Recv()):
			recv = sel.X
		default:
			return true
		}
		if lit := c.nativeFuncLit(sel, sig, recv, selection); lit != nil {
			cur.Replace(lit)
		}
		return true
	})
}

// nativeFuncLit is the literal that calls sel (through a receiver bound
// where the value is made, when recv is not nil), typed for the passes
// after; nil if a type cannot be written.
func (c *Cell) nativeFuncLit(sel *ast.SelectorExpr, sig *types.Signature, recv ast.Expr, selection *types.Selection) ast.Expr {
	pos := sel.Pos()
	var recvVar *types.Var
	var recvName string
	fun := ast.Expr(sel)
	var recvType types.Type
	if recv != nil {
		recvType = selection.Recv()
		if ptrMethodOnValue(selection) {
			// A pointer method of an addressable value (put := m.Store,
			// m a sync.Map): Go binds &m, and the value bound was a copy,
			// which the calls stored into, silently.
			recvType = types.NewPointer(recvType)
			recv = &ast.UnaryExpr{OpPos: recv.Pos(), Op: token.AND, X: recv}
			c.Types.Types[recv] = types.TypeAndValue{Type: recvType}
		}
		recvName = c.Temp("NR")
		rid := ident(recvName, pos)
		recvVar = types.NewParam(pos, c.Types.Pkg, recvName, recvType)
		c.Types.Uses[rid] = recvVar
		inner := &ast.SelectorExpr{X: rid, Sel: sel.Sel}
		c.Types.Selections[inner] = selection
		c.Types.Types[inner] = types.TypeAndValue{Type: sig}
		fun = inner
	}
	lit := c.forwardLit(sig, pos, "NF", func(args []ast.Expr) *ast.CallExpr {
		return &ast.CallExpr{Fun: fun, Args: args}
	})
	fl, ok := lit.(*ast.FuncLit)
	if !ok {
		return nil
	}
	c.typeForwardLit(fl, sig)
	c.Types.Types[fl] = types.TypeAndValue{Type: sig}
	if recv == nil {
		return fl
	}
	rt, ok := c.TypeExpr(recvType, pos)
	if !ok {
		return nil
	}
	ft, ok := c.TypeExpr(sig, pos)
	if !ok {
		return nil
	}
	rdef := ident(recvName, pos)
	c.Types.Defs[rdef] = recvVar
	outer := funcLit(pos, sel.End(), results(ft), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{fl}})
	outer.Type.Params = &ast.FieldList{Opening: pos, List: []*ast.Field{{Names: []*ast.Ident{rdef}, Type: rt}}, Closing: pos}
	call := &ast.CallExpr{Fun: outer, Lparen: pos, Args: []ast.Expr{recv}, Rparen: sel.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: sig}
	return call
}

// typeForwardLit tells the oracle the types of the parameters forwardLit
// wrote in fl and of the call that forwards them, for the passes after.
func (c *Cell) typeForwardLit(fl *ast.FuncLit, sig *types.Signature) {
	vars := map[string]*types.Var{}
	i := 0
	for _, f := range fl.Type.Params.List {
		for _, id := range f.Names {
			v := types.NewParam(id.Pos(), c.Types.Pkg, id.Name, sig.Params().At(i).Type())
			c.Types.Defs[id] = v
			vars[id.Name] = v
			i++
		}
	}
	ast.Inspect(fl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := vars[n.Name]; ok {
				c.Types.Uses[n] = v
			}
		case *ast.CallExpr:
			if sig.Results().Len() == 1 {
				c.Types.Types[n] = types.TypeAndValue{Type: sig.Results().At(0).Type()}
			} else if sig.Results().Len() > 1 {
				c.Types.Types[n] = types.TypeAndValue{Type: sig.Results()}
			}
		}
		return true
	})
}

// rootName is x when x is an identifier, or nil.
func rootName(x ast.Expr) *ast.Ident {
	id, _ := x.(*ast.Ident)
	return id
}

func isPkgName(o types.Object) bool {
	_, ok := o.(*types.PkgName)
	return ok
}

// cellTypeIn reports whether t, or the type t points to, is a cell's.
func (c *Cell) cellTypeIn(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return typecheck.IsCellType(t)
}

// ptrMethodOnValue reports whether the method value s is a method with a
// pointer receiver selected on a value (of an addressable operand: Go
// takes its address).
func ptrMethodOnValue(s *types.Selection) bool {
	sig, ok := s.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	_, ptrOperand := s.Recv().Underlying().(*types.Pointer)
	return ptrRecv && !ptrOperand
}
