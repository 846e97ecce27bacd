package compat

import (
	"go/ast"
	"go/parser"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// Typed copies of generic functions: what the engine needs of compat to
// call an instance that would compare by wrappers (comparableInstances)
// or show a based type argument wrong (basedTypes) as a copy of the
// function with the type arguments written in (engine/typedcopies.go
// declares the copies in the cell before the oracle types it).

// CellCopy is an instance of a generic function of the cells which the
// engine calls as a copy of the function with the type arguments written
// in, declared in the cell and so typed and rewritten as the cell's own
// code: there ifaceCompare and ifaceKeys compare the values inside the
// wrappers (Contains[any], Count[Move], Uniq[Shape]), and the passes
// that know a based type by its name (basedAsserts, typeSwitches,
// reflectNames, fmtArgs) see it (Kind[Nim] printing reflect.TypeOf(v),
// Show[Heap] printing a []T), where inside the generic function the
// interpreter has the underlying type; and a type switch or assertion to
// a type parameter bound to an interface (case T: of f[J]) asserts to
// the interface, where yaegi's instance took a value without its methods.
// The type arguments written in can make a type switch's cases repeat
// (case T: ... case myint: of f[myint]): the later ones, which Go's
// instance never takes, are dropped.
type CellCopy struct {
	ID       *ast.Ident // the function's name where the cell instantiates it
	Func     string
	TypeArgs []string // as source
	Name     string   // the copy's
}

// CellCopies are the instances the engine calls as copies (see
// CellCopy): those of generic functions whose type arguments can be
// written at the cell's top level.
func (c *Cell) CellCopies() []CellCopy {
	var out []CellCopy
	seen := map[*ast.Ident]bool{}
	for _, w := range append(c.wrapperInstances(), c.basedInstances()...) {
		if w.fn == nil || seen[w.id] {
			continue
		}
		seen[w.id] = true
		cp := CellCopy{ID: w.id, Func: w.fn.Name()}
		for i := range w.targs.Len() {
			s, ok := c.Types.TypeString(w.targs.At(i))
			if !ok {
				cp.TypeArgs = nil
				break
			}
			cp.TypeArgs = append(cp.TypeArgs, s)
		}
		if len(cp.TypeArgs) == w.targs.Len() {
			cp.Name = hashedName("Typed_"+cp.Func, append([]string{cp.Func}, cp.TypeArgs...)...)
			out = append(out, cp)
		}
	}
	return out
}

// basedInstances are the cell's instances of generic functions that
// basedTypes would refuse: a based type argument would show wrong inside
// (basedCheck.showsWrong).
func (c *Cell) basedInstances() []wrapperInstance {
	based := c.basedCellTypes()
	b := basedCheck{c: c, based: based, jsonOnly: c.jsonLiterals()}
	var out []wrapperInstance
	for _, id := range c.instanceIDs() {
		fn, ok := c.Types.ObjectOf(id).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" || fn.Type().(*types.Signature).Recv() != nil {
			continue
		}
		targs := c.Types.Instances[id].TypeArgs
		if targs == nil || slices.ContainsFunc(typeList(targs), hasTypeParam) {
			continue
		}
		fd := c.funcDecl(fn.Name())
		if c.assertsThrough(fd, ifaceArgs(targs), map[*ast.FuncDecl]bool{}) || assertsToIfaceArgs(fd, c.lookalikeArgs(targs)) || c.storesComposites(fd, targs) || recursesInLoopBody(fd) || c.errorsAsCellIface(fd, targs) || c.decodesJSON(fd, targs) || c.printsAny(fd, targs) || reflectsIface(fd, targs) || c.putsCellIfaceInAny(fd, targs) || c.shapeTwinArgs(targs) && !ptrParams(fn) || c.boxedParams(fn.Name(), typeList(targs)) != nil || b.showsWrong(id, targs, "function", []*ast.FuncDecl{fd}) != nil {
			out = append(out, wrapperInstance{id: id, fn: fn, targs: targs})
		}
	}
	return out
}

// storesComposites reports whether a type argument of targs is a
// composite the engine hides in interfaces (Hideable: Box[[]Heap]) and
// fd's signature or body names an empty interface (func Box[T any](v T)
// any { return v }): the value the generic function put there was the
// bare composite ([]int to %T, and Get[[]Heap](b) failed on it); in the
// typed copy it is the cell's, which the engine hides (engine's
// hideComposites).
//
// So too for an instance of a generic type on a slice, array or map
// (Moves[Nimber] with type Moves[T any] []T) and a pointer to a cell type
// on a basic type, array, slice or map (&h, a *Heaps): put in an
// interface by generic code that prints nothing (box[T any](v T) any,
// an append to a []any, a send on a chan any), each was its underlying
// type's value ([]int to %T, a []int to an assertion; its elements
// printed without their String), silently; in the copy the cell's own
// rules refuse it, as they refuse it in the cell's code.
// Where a type argument is a cell type on a basic type, an array, a
// slice or a map and fd makes an instance of a generic type on an array,
// a slice or a map of it (Seq[T]{v, v} with T a Nimber), or has a pointer
// to it (p *T) or a slice, array or map of it (xs []T, xs ...T), those count too. An empty
// interface fd names may be in the type of a variable it uses (notes =
// append(notes, v), notes a []any).
func (c *Cell) storesComposites(fd *ast.FuncDecl, targs *types.TypeList) bool {
	if fd == nil || fd.Body == nil {
		return false
	}
	// (fd may be an earlier cell's, which the oracle typed then: its
	// names are looked up in the package.)
	global := func(id *ast.Ident) types.Object {
		if obj := c.Types.ObjectOf(id); obj != nil {
			return obj
		}
		return c.topLevel(id.Name)
	}
	makesInstance := func() bool {
		found := false
		params := map[string]bool{}
		if fd.Type.TypeParams != nil {
			for _, n := range typeParamNames(fd.Type.TypeParams) {
				params[n] = true
			}
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			// A method of a generic struct with a *T field (Ref[T]
			// returning its p *T as any gave *int for a *Score).
			if ptrParamField(c.topLevel(recvName(fd.Recv.List[0].Type))) {
				return true
			}
		}
		param := func(e ast.Expr) bool {
			id, ok := e.(*ast.Ident)
			return ok && params[id.Name]
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			var x ast.Expr
			switch n := n.(type) {
			case *ast.IndexExpr:
				x = n.X
			case *ast.IndexListExpr:
				x = n.X
			case *ast.StarExpr:
				// *T: a pointer to the cell's type (boxed(p *T) any
				// returning p gave *[]int for a *Hist).
				found = found || param(n.X)
			case *ast.ArrayType:
				// []T, [n]T: a composite of the cell's type (Show(xs
				// []T) handing xs to describe(x any) gave []int for a
				// []Suit).
				found = found || param(n.Elt)
			case *ast.Ellipsis:
				// xs ...T: a []T too (Pack(xs ...T) any returning xs
				// gave [1 2] for IDs with String).
				found = found || param(n.Elt)
			case *ast.MapType:
				found = found || param(n.Key) || param(n.Value)
			}
			if id, ok := x.(*ast.Ident); ok {
				if tn, ok := global(id).(*types.TypeName); ok {
					if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
						switch n.Underlying().(type) {
						case *types.Slice, *types.Array, *types.Map:
							found = true
						}
					}
				}
			}
			return !found
		})
		return found
	}
	if !slices.ContainsFunc(typeList(targs), func(t types.Type) bool { return Hideable(t) || basedInAny(t) }) &&
		!(slices.ContainsFunc(typeList(targs), func(t types.Type) bool {
			n, ok := types.Unalias(t).(*types.Named)
			return ok && isBased(n)
		}) && makesInstance()) {
		return false
	}
	return c.namesEmptyIface(fd, global)
}

// putsCellIfaceInAny reports whether a type argument of targs is an
// interface with methods the cells declare and fd may put a value in an
// empty interface (a := any(x), var e any = x, show(x) with show taking
// an any; as storesComposites looks): yaegi's instance put a nil one
// there as its own empty valueInterface, which a == nil called nil and
// a != nil not nil, silently; in the copy cellIfaceInAny writes it.
func (c *Cell) putsCellIfaceInAny(fd *ast.FuncDecl, targs *types.TypeList) bool {
	if fd == nil || fd.Body == nil || !slices.ContainsFunc(typeList(targs), func(t types.Type) bool {
		return typecheck.IsCellType(t) && types.IsInterface(t) && !emptyIface(t)
	}) {
		return false
	}
	return c.namesEmptyIface(fd, func(id *ast.Ident) types.Object {
		if obj := c.Types.ObjectOf(id); obj != nil {
			return obj
		}
		return c.topLevel(id.Name)
	})
}

// namesEmptyIface reports whether fd's signature or body names an empty
// interface, a variable or field holding one, a function of the cells
// taking one, or a native container keeping values as one (global looks
// names up: fd may be an earlier cell's).
func (c *Cell) namesEmptyIface(fd *ast.FuncDecl, global func(*ast.Ident) types.Object) bool {
	found := false
	nodes := []ast.Node{fd.Body}
	for _, l := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if l != nil {
			nodes = append(nodes, l)
		}
	}
	for _, n := range nodes {
		if found {
			break
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				// l.PushBack(xs), heap.Push(h, xs): a native container
				// keeps it as an any does.
				found = found || c.keepsNatively(x)
			case *ast.Ident:
				switch o := global(x).(type) {
				case *types.Var:
					if !found && !hasTypeParam(o.Type()) {
						found = holdsEmptyIface(o.Type())
					}
				case *types.Func:
					// show(v) or p.Put(v), a function or method of the
					// cells taking an empty interface, or a generic one
					// (Show(v), whose instance its copy decides).
					found = found || cellFuncTakesAny(o)
				case *types.TypeName:
					// (Cell{v} with a field V any; not a type parameter,
					// whose constraint is an interface)
					found = found || !isTypeParam(o.Type()) && holdsEmptyIfaces(o)
				}
				found = found || x.Name == "any"
			case *ast.InterfaceType:
				found = found || x.Methods == nil || len(x.Methods.List) == 0
			}
			return !found
		})
	}
	return found
}

// cellFuncTakesAny reports whether fn is a function or method of the
// cells with a parameter of an empty interface type, or of a type
// parameter's.
func cellFuncTakesAny(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
		return false
	}
	for i := range sig.Params().Len() {
		if pt := sig.Params().At(i).Type(); isTypeParam(pt) || holdsEmptyIface(pt) {
			return true
		}
	}
	return false
}

// errorsAsCellIface reports whether fd calls errors.As or errors.AsType
// and a type argument of targs is an interface with methods a cell
// declares (AsT[Coded] with var t T; errors.As(err, &t)): the engine's
// errors.As is told the target's static type, which in the generic
// function is the parameter, and yaegi keeps a value bound to a cell's
// interface as a struct of its own, so the target stayed nil and As said
// false, silently; in the typed copy the target is a Coded.
func (c *Cell) errorsAsCellIface(fd *ast.FuncDecl, targs *types.TypeList) bool {
	return copyCalls(fd, targs, func(t types.Type) bool {
		return isIfaceType(t) && !emptyIface(t) && typecheck.IsCellType(t)
	}, func(sel *ast.SelectorExpr) bool {
		switch {
		case isIdent(sel.X, "errors"):
			return sel.Sel.Name == "As" || sel.Sel.Name == "AsType"
		case isIdent(sel.X, prelude.Runtime):
			return strings.HasPrefix(sel.Sel.Name, prelude.RTErrorsAs)
		}
		return false
	})
}

// copyCalls reports whether a type argument of targs is one arg tells,
// and fd's body selects what calls tells (pkg.F, x.M). By its syntax: fd
// may be an earlier cell's, as compiled, where errors.As is the
// runtime's ErrorsAs and json.Unmarshal its JSONUnmarshal.
func copyCalls(fd *ast.FuncDecl, targs *types.TypeList, arg func(types.Type) bool, calls func(*ast.SelectorExpr) bool) bool {
	if fd == nil || fd.Body == nil || !slices.ContainsFunc(typeList(targs), arg) {
		return false
	}
	return contains(fd.Body, false, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		return ok && calls(sel)
	})
}

// printsAny reports whether fd hands something to fmt or log and targs
// binds a type parameter to an empty interface (Show[any](Word("z")),
// Join([]any{...}, ",")): yaegi v0.16.1 gives the printer's wrapper of a
// T holding a value of a cell type with methods by evaluating again the
// node that made the value, in another frame (interp/value.go:338,
// getBinValue), and the cell panicked with a nil dereference; in the
// copy the value is an interface's, printed as one.
func (c *Cell) printsAny(fd *ast.FuncDecl, targs *types.TypeList) bool {
	return copyCalls(fd, targs, emptyIface, func(sel *ast.SelectorExpr) bool {
		switch {
		case isIdent(sel.X, "fmt"), isIdent(sel.X, "log"):
			return true
		case isIdent(sel.X, prelude.Runtime):
			return sel.Sel.Name == prelude.RTFmtParam || sel.Sel.Name == prelude.RTFmtParams
		}
		switch sel.Sel.Name {
		case "Printf", "Println", "Print", "Fatalf", "Panicf", "Fprintf", "Fprintln", "Fprint":
			return true // (a *log.Logger's)
		}
		return false
	})
}

// reflectsIface reports whether fd hands a value to reflect (TypeOf,
// ValueOf, as reflectNames writes them for a type parameter's value) and
// targs binds a type parameter to an interface (tn[any](Nim(1)), T bound
// to fmt.Stringer or a cell's interface): in yaegi's instance the value
// is in the interpreter's box or wrapper, and reflect named that
// (interface {}, int for a Nim), silently; in the copy the value is an
// interface's, whose dynamic type reflectNames names.
func reflectsIface(fd *ast.FuncDecl, targs *types.TypeList) bool {
	return copyCalls(fd, targs, types.IsInterface, func(sel *ast.SelectorExpr) bool {
		switch {
		case isIdent(sel.X, "reflect"):
			return sel.Sel.Name == "TypeOf" || sel.Sel.Name == "ValueOf"
		case isIdent(sel.X, prelude.Runtime):
			return sel.Sel.Name == prelude.RTTypeOfParam || sel.Sel.Name == prelude.RTValueOf
		}
		return false
	})
}

// decodesJSON reports whether fd decodes JSON (json.Unmarshal, a
// Decoder's Decode) and a type argument of targs has in it a cell type
// with UnmarshalJSON or UnmarshalText (or a struct embedding one): into
// a T (var v T; json.Unmarshal(b, &v)) native json saw the underlying
// type and called no method (Parse[Level] gave 0), silently; in the copy
// jsonArgs sees the type.
func (c *Cell) decodesJSON(fd *ast.FuncDecl, targs *types.TypeList) bool {
	return copyCalls(fd, targs, func(t types.Type) bool {
		return !types.IsInterface(t) && jsonInNeeds(t, map[types.Type]bool{})
	}, func(sel *ast.SelectorExpr) bool {
		switch {
		case isIdent(sel.X, "json"):
			return sel.Sel.Name == "Unmarshal"
		case isIdent(sel.X, prelude.Runtime):
			return sel.Sel.Name == prelude.RTJSONUnmarshal || sel.Sel.Name == prelude.RTJSONDecode
		}
		return sel.Sel.Name == "Decode"
	})
}

// assertsToIface reports whether fd, a generic function or a method of a
// generic type, asserts or
// switches to a type parameter that targs binds to an interface type
// (case T: with T J): yaegi's instance matched a value that does not
// implement it (a myint without J's bar), silently; and to a type made
// of a type parameter (case interface{ foo() T }: matched nothing; case
// struct{ a, b T }, x.(struct{ a, b T }): did not compile).
func assertsToIface(fd *ast.FuncDecl, targs *types.TypeList) bool {
	return assertsToIfaceArgs(fd, ifaceArgs(targs))
}

// lookalikeArgs tells which of targs the interpreter cannot tell from a
// based cell type the session boxes (int beside type ID int): yaegi's
// instance of a type switch's case T, T int, took an ID for an int
// (CountOf[int] counted the IDs too), silently; in the typed copy the
// case is int, which the engine's based assertions check by name.
func (c *Cell) lookalikeArgs(targs *types.TypeList) []bool {
	out := make([]bool, targs.Len())
	for i := range out {
		t := targs.At(i)
		if types.IsInterface(t) {
			continue
		}
		like := erased(t, map[types.Type]bool{})
		for _, n := range c.basedCellTypes() {
			if boxed(n) && !types.Identical(n, t) && types.Identical(erased(n, map[types.Type]bool{}), like) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// shapeTwinArgs reports whether a type argument of targs is (or points
// to) an instance of a cell's generic type that another generic type of
// the session matches in shape (type A[T any] struct{ X T } and type B[T
// any] struct{ X T }; Stack[T] and Queue[T] on []T; the empty Sum[T] and
// Max[T] of monoids): yaegi v0.16.1 keys a generic function's instances
// by its type arguments' type strings (interp/generic.go, genAST's
// sname), which for an instance are its structure's (struct { X int }),
// so Call[B[int]] ran Call[A[int]]'s code, silently (a method through
// the constraint called A's), or panicked in reflect.Set. The typed copy
// names the type. (A generic type instantiated with such an argument,
// Box[B[int]], is not copied.)
func (c *Cell) shapeTwinArgs(targs *types.TypeList) bool {
	for i := range targs.Len() {
		n, ok := types.Unalias(deref(targs.At(i))).(*types.Named)
		if !ok || n.TypeArgs().Len() == 0 || !typecheck.IsCellType(n) {
			continue
		}
		key := shapeKey(n.Origin())
		for _, tn := range c.Types.CellTypes() {
			o, ok := tn.Type().(*types.Named)
			if ok && !tn.IsAlias() && o.TypeParams().Len() > 0 && o.Obj() != n.Origin().Obj() && o.Obj().Name() != n.Origin().Obj().Name() && shapeKey(o) == key {
				return true
			}
		}
	}
	return false
}

// ptrParams reports whether a type parameter of fn is constrained to a
// pointer to another (P interface{ *S; Push(T) }, made by P(new(S))): in
// a typed copy new(Stack[int]) named an instance no cell had made, which
// yaegi could not find ("type not found: Stack[int]").
func ptrParams(fn *types.Func) bool {
	tps := fn.Type().(*types.Signature).TypeParams()
	for i := range tps.Len() {
		if p, ok := coreType(tps.At(i)).(*types.Pointer); ok {
			if _, param := p.Elem().(*types.TypeParam); param {
				return true
			}
		}
	}
	return false
}

// shapeKey is what a generic type's instances may share with another's
// in the interpreter's type strings: a struct's field names, or the kind
// of its underlying type (over-matching costs a typed copy only).
func shapeKey(o *types.Named) string {
	switch u := o.Underlying().(type) {
	case *types.Struct:
		var names []string
		for i := range u.NumFields() {
			names = append(names, u.Field(i).Name())
		}
		return "struct{" + strings.Join(names, ";") + "}"
	case *types.Basic:
		return u.Name()
	case *types.Array:
		return "array" + strconv.FormatInt(u.Len(), 10)
	}
	return reflect.TypeOf(o.Underlying()).String()
}

// ifaceArgs tells which of targs are interface types.
func ifaceArgs(targs *types.TypeList) []bool {
	out := make([]bool, targs.Len())
	for i := range out {
		out[i] = types.IsInterface(targs.At(i))
	}
	return out
}

// assertsThrough is assertsToIface of fd or of a generic function of the
// cells fd calls with its type parameters as the type arguments
// (Count[T] calling Collect[T], which asserts x.(T)): the typed copy of
// fd calls Collect's typed copy, where yaegi's instance of Collect,
// called from the instance of Count, panicked on a nil pointer.
func (c *Cell) assertsThrough(fd *ast.FuncDecl, ifaces []bool, seen map[*ast.FuncDecl]bool) bool {
	if fd == nil || fd.Body == nil || seen[fd] {
		return false
	}
	seen[fd] = true
	if assertsToIfaceArgs(fd, ifaces) {
		return true
	}
	params := map[string]bool{}
	if fd.Type.TypeParams != nil {
		for i, n := range typeParamNames(fd.Type.TypeParams) {
			params[n] = i < len(ifaces) && ifaces[i]
		}
	}
	return contains(fd.Body, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		g, args := indexed(call.Fun)
		if g == nil || len(args) == 0 || !slices.ContainsFunc(args, func(a ast.Expr) bool { id, ok := a.(*ast.Ident); return ok && params[id.Name] }) {
			return false
		}
		inner := make([]bool, len(args))
		for i, a := range args {
			id, ok := a.(*ast.Ident)
			inner[i] = ok && params[id.Name]
		}
		return c.assertsThrough(c.funcDecl(g.Name), inner, seen)
	})
}

func assertsToIfaceArgs(fd *ast.FuncDecl, ifaces []bool) bool {
	if fd == nil || fd.Body == nil {
		return false
	}
	var names []string
	if fd.Type.TypeParams != nil {
		names = typeParamNames(fd.Type.TypeParams)
	}
	for _, e := range receiverTypeArgs(fd) { // a method's: Box[T]
		id, _ := e.(*ast.Ident)
		if id == nil {
			return false
		}
		names = append(names, id.Name)
	}
	params, all := map[string]bool{}, map[string]bool{}
	for i, n := range names {
		all[n] = true
		if i < len(ifaces) && ifaces[i] {
			params[n] = true
		}
	}
	isParam := func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return params[e.Name]
		case *ast.InterfaceType, *ast.StructType:
			// A type literal made of one (case interface{ foo() T }:
			// matched nothing; case struct{ a, b T }: did not compile).
			return contains(e, false, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				return ok && all[id.Name]
			})
		}
		return false
	}
	return contains(fd.Body, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			return n.Type != nil && isParam(n.Type)
		case *ast.TypeSwitchStmt:
			return slices.ContainsFunc(n.Body.List, func(st ast.Stmt) bool {
				return slices.ContainsFunc(st.(*ast.CaseClause).List, isParam)
			})
		}
		return false
	})
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
	if ok {
		dropDuplicateCases(fd)
	}
	return ok
}

// dropDuplicateCases takes out of fd's type switches the cases that the
// type arguments written in made repeat an earlier one (case T: ... case
// myint: with T myint), which Go's instance never takes; a clause left
// without cases goes (it would be a default).
func dropDuplicateCases(fd *ast.FuncDecl) {
	ast.Inspect(fd, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSwitchStmt)
		if !ok {
			return true
		}
		seen := map[string]bool{}
		ts.Body.List = slices.DeleteFunc(ts.Body.List, func(st ast.Stmt) bool {
			cl := st.(*ast.CaseClause)
			if cl.List == nil {
				return false
			}
			cl.List = slices.DeleteFunc(cl.List, func(e ast.Expr) bool {
				k := ExprString(e)
				dup := seen[k]
				seen[k] = true
				return dup
			})
			return len(cl.List) == 0
		})
		return true
	})
}

// basedInAny reports whether t is an instance of a generic type on an
// array, a slice or a map, or a pointer to a cell type on a basic type,
// an array, a slice or a map (see storesComposites).
func basedInAny(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		n, ok := types.Unalias(p.Elem()).(*types.Named)
		return ok && isBased(n)
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || !typecheck.IsCellType(n) {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}

// recursesInLoopBody reports whether fd calls itself in the body of a
// range over a function iterator or in a function literal (which the
// range becomes: compat's rangeFunc). yaegi v0.16.1 ran such a generic
// function's recursive call with the loop's state of the outer call
// (winsG[T] breaking out of a range over seq(n) when the call inside
// returned: the inner loop never ran, and the search answered true where
// Go answers false, silently); the typed copy, a plain function, runs
// as Go does.
func recursesInLoopBody(fd *ast.FuncDecl) bool {
	if fd == nil || fd.Body == nil || fd.Type.TypeParams == nil {
		return false
	}
	calls := func(n ast.Node) bool {
		return contains(n, false, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return false
			}
			id, _ := ast.Unparen(unindex(call.Fun)).(*ast.Ident)
			return id != nil && id.Name == fd.Name.Name
		})
	}
	return contains(fd.Body, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			return calls(n.Body)
		case *ast.FuncLit:
			return calls(n.Body)
		}
		return false
	})
}
