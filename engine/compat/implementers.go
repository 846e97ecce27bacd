package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The tries an assertion to an interface is made of, shared by
// ifaceAsserts and typeSwitches: which cell and native types implement the
// interface, and how a value of each is asserted and converted.

// cellStructs are the cell types (T and *T, T a struct type) whose values
// implement the interface iface, and those whose values do not though
// T or *T has some of its methods, as source at pos. The interpreter's own
// assertion to an interface passes a value of a cell struct type with the
// methods, whatever their receivers (Circle{1} to Shape, Area on *Circle),
// and then fails putting it in the interface or calling a method; and its
// panic cannot name the method missing. So the others are asserted too,
// to say no, naming the method. The
// interpreter asserts a value to such a type by its reflect type, which
// structNames makes distinct for types with fields; two without fields
// are one reflect type, so an implementer cannot be told from the other:
// the cell is refused, naming both. Only types a value of the type from
// (the static type of the value asserted; nil for any) can hold are
// listed: Go refuses an assertion to any other as impossible.
func (c *Cell) cellStructs(from, iface types.Type, pos token.Pos) (impls []ast.Expr, implTypes []types.Type, others []cellStruct) {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok || it.Empty() {
		return nil, nil, nil
	}
	if _, param := types.Unalias(iface).(*types.TypeParam); param && it.NumMethods() == 0 {
		// A type parameter constrained by comparable (or a union), whose
		// case T is its type argument's, not every cell type's
		// (Box[string]{1}.Is() with case T: panicked in the interpreter
		// asserting to *Box[string]).
		return nil, nil, nil
	}
	var fromIface *types.Interface
	if from != nil {
		fromIface, _ = from.Underlying().(*types.Interface)
	}
	var found, rest []types.Type
	var structs []*types.Named
	for _, tn := range c.Types.CellTypes() {
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 && structBased(n) {
			structs = append(structs, n)
		}
	}
	for _, tn := range c.Types.LocalTypes() {
		// (Declared at the top by localTypeNames: the interpreter
		// asserts its values as it does those of the top's types.)
		if n, ok := tn.Type().(*types.Named); ok && structBased(n) {
			structs = append(structs, n)
		}
	}
	structs = append(structs, c.structInstances()...)
	for _, n := range structs {
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if fromIface != nil && !types.AssertableTo(fromIface, t) {
				continue
			}
			if types.Implements(t, it) {
				found = append(found, t)
			} else if hasSome(types.NewPointer(n), it) {
				rest = append(rest, t)
			}
		}
	}
	for i, t := range found {
		for _, f := range append(found[:i:i], rest...) {
			if types.Identical(erased(f, map[types.Type]bool{}), erased(t, map[types.Type]bool{})) && !(told(f) && told(t)) {
				c.Fail(pos, "cannot tell %s from %s in an interface (the interpreter keeps values of struct types without fields alike), so a method called through %s could be the wrong one: give the types a field",
					types.TypeString(t, shortQualifier), types.TypeString(f, shortQualifier), types.TypeString(iface, shortQualifier))
				return nil, nil, nil
			}
		}
	}
	for _, t := range found {
		if tx, ok := c.assertedTypeExpr(t, pos); ok {
			impls = append(impls, tx)
			implTypes = append(implTypes, t)
		}
	}
	for _, t := range rest {
		if tx, ok := c.assertedTypeExpr(t, pos); ok {
			m, _ := types.MissingMethod(t, it, true)
			others = append(others, cellStruct{tx, m.Name()})
		}
	}
	return impls, implTypes, others
}

// assertedTypeExpr is t, a struct type or a pointer to one, written for
// an assertion the pass writes: an instance of a generic type as its
// alias (see instanceAsserts), which a function can assert to before
// the cell's statements have made any value of it (case *Queue[string]
// in a function, a Queue[string] made later in the cell: "type not
// found: main.Queue[string]").
func (c *Cell) assertedTypeExpr(t types.Type, pos token.Pos) (ast.Expr, bool) {
	tx, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil, false
	}
	x := tx
	star, isPtr := tx.(*ast.StarExpr)
	if isPtr {
		x = star.X
	}
	if n, ok := types.Unalias(deref(t)).(*types.Named); !ok || n.TypeArgs().Len() == 0 || hasTypeParam(n) || localNamed(n) || !c.packageLevel(x) {
		return tx, true
	}
	alias := ident(c.instanceAlias(x), pos)
	if isPtr {
		star.X = alias
		return star, true
	}
	return alias, true
}

// structInstances are the instances of the cells' generic struct types
// with methods that this cell names (Stack[int]), with no type parameter
// among their type arguments: a value of one in an interface asserted to
// an interface its methods implement was said no to by yaegi's own
// assertion (y.(fmt.Stringer) of a Stack[int] in an any was false),
// silently; asserted to the instance first, it is converted.
func (c *Cell) structInstances() []*types.Named {
	if c.instances != nil {
		return c.instances
	}
	all := StructInstances(c.Types)
	if c.Session != nil {
		// Those earlier cells named, while their generic type stands.
		current := map[string]*types.TypeName{}
		for _, tn := range c.Types.CellTypes() {
			current[tn.Name()] = tn
		}
		for name, n := range c.Session.Instances() {
			if _, mine := all[name]; !mine && current[n.Origin().Obj().Name()] == n.Origin().Obj() {
				all[name] = n
			}
		}
	}
	c.instances = []*types.Named{}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		c.instances = append(c.instances, all[name])
	}
	return c.instances
}

// StructInstances are the instances of the cells' generic struct types
// with methods, their own or promoted from embedded fields (Stack[int], no type parameter among their type
// arguments) that the types of a cell mention, by their names as the
// oracle writes them: the engine tells the printer their methods, and
// the session keeps them for assertions (see structInstances).
func StructInstances(info *typecheck.Info) map[string]*types.Named {
	return instancesIn(info, func(n *types.Named) bool {
		_, ok := n.Underlying().(*types.Struct)
		return ok && HasMethods(n)
	})
}

// HasMethods reports whether n or a pointer to it has methods, its own or
// promoted from embedded fields.
func HasMethods(n *types.Named) bool { return types.NewMethodSet(types.NewPointer(n)).Len() > 0 }

// PrintedInstances are StructInstances and the instances of the cells'
// generic struct types with a cell type on a basic type, a slice or a map
// among their type arguments (Pair[Nimber, string]), which the engine
// tells the printer: their reflect types have the underlying types' in
// their fields, and Nimber's String went unused.
func PrintedInstances(info *typecheck.Info) map[string]*types.Named {
	return instancesIn(info, func(n *types.Named) bool {
		if _, ok := n.Underlying().(*types.Struct); !ok {
			return false
		}
		if HasMethods(n) {
			return true
		}
		based := false
		for i := range n.TypeArgs().Len() {
			EachNamed(n.TypeArgs().At(i), func(m *types.Named) {
				switch m.Underlying().(type) {
				case *types.Struct, *types.Interface:
				default:
					based = based || typecheck.IsCellType(m)
				}
			})
		}
		return based
	})
}

// CellInstances are the instances of the cells' generic types (of any
// kind) the cell's expressions have, by name, those with type parameters
// left out.
func CellInstances(info *typecheck.Info) map[string]*types.Named {
	return instancesIn(info, func(*types.Named) bool { return true })
}

// SelfReferring reports whether n is an instance of a generic struct type
// that refers to itself (Tree[int], of type Tree[T any] struct{ Kids
// []*Tree[T] }).
func SelfReferring(n *types.Named) bool {
	o := n.Origin()
	st, ok := o.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	self := false
	for i := range st.NumFields() {
		EachNamed(st.Field(i).Type(), func(m *types.Named) { self = self || m.Origin() == o })
	}
	return self
}

// RuntimeName is n, an instance of a cell's generic type, as Go's runtime
// names it (main.Pair[main.Nim,string], what %T prints); false where a
// type argument is one it does not write (a function, a struct, an
// interface with methods, a type declared in a function).
func RuntimeName(n *types.Named) (string, bool) {
	s, ok := runtimeName(n)
	return s, ok && n.TypeArgs().Len() > 0
}

func runtimeName(t types.Type) (string, bool) {
	if u, ok := hiddenComposite(t); ok {
		return runtimeName(u)
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.Byte:
			return "uint8", true
		case types.Rune:
			return "int32", true
		}
		return t.Name(), t.Info()&types.IsUntyped == 0 && t.Kind() != types.UnsafePointer
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return obj.Name(), obj.Name() == "error"
		}
		if obj.Parent() != obj.Pkg().Scope() {
			return "", false // (a type declared in a function)
		}
		name := obj.Pkg().Name() + "." + obj.Name()
		if typecheck.IsCellType(t) {
			name = "main." + obj.Name()
		}
		if t.TypeArgs().Len() == 0 {
			return name, true
		}
		var args []string
		for i := range t.TypeArgs().Len() {
			a, ok := runtimeName(t.TypeArgs().At(i))
			if !ok {
				return "", false
			}
			args = append(args, a)
		}
		return name + "[" + strings.Join(args, ",") + "]", true
	case *types.Pointer:
		e, ok := runtimeName(t.Elem())
		return "*" + e, ok
	case *types.Slice:
		e, ok := runtimeName(t.Elem())
		return "[]" + e, ok
	case *types.Array:
		e, ok := runtimeName(t.Elem())
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + e, ok
	case *types.Map:
		k, ok1 := runtimeName(t.Key())
		e, ok2 := runtimeName(t.Elem())
		return "map[" + k + "]" + e, ok1 && ok2
	case *types.Interface:
		return "interface {}", t.Empty()
	}
	return "", false
}

// instancesIn are the instances of the cells' generic types with their
// type arguments known in info's expressions for which keep is true, by
// the names the session writes them.
func instancesIn(info *typecheck.Info, keep func(*types.Named) bool) map[string]*types.Named {
	found := map[string]*types.Named{}
	seen := map[types.Type]bool{}
	add := func(t types.Type) {
		EachNamed(t, func(n *types.Named) {
			if n.TypeArgs().Len() == 0 || !typecheck.IsCellType(n) || HasTypeParam(n) || !keep(n) {
				return
			}
			if name, ok := info.TypeString(n); ok {
				found[name] = n
			}
		})
	}
	for _, tv := range info.Types {
		if tv.Type == nil || seen[tv.Type] {
			continue
		}
		seen[tv.Type] = true
		if tuple, ok := tv.Type.(*types.Tuple); ok {
			// (a call's results: e, err = mk(3) has a Box[int] in no
			// other expression)
			for i := range tuple.Len() {
				add(tuple.At(i).Type())
			}
			continue
		}
		add(tv.Type)
	}
	return found
}

// named reports whether t is (a pointer to) a struct type that
// structNames names in its reflect type, so that the interpreter tells
// it from another of the same fields: a cell's non-generic struct type
// (one without fields carries its name in a field of no size).
func named(t types.Type) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || n.TypeParams().Len() > 0 {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

// told reports whether the interpreter tells a value of t in an interface
// from one of another struct type of the same fields: t is named (see
// named), or an instance of a generic struct type with fields, which
// carries the generic type's name in its first field's tag (Stack[int]
// from Queue[int]).
func told(t types.Type) bool {
	if named(t) {
		return true
	}
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || hasTypeParam(n) {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	return ok && st.NumFields() > 0
}

// boxedOthers are the types on a basic type with methods that do not
// implement tt, an interface with methods, each with the first method it
// lacks: yaegi's assertion to a native interface fails on such a value
// ("method not found: Error" for a Code asserted to fmt.Stringer), so it
// is said no to by the name its box carries.
func (c *Cell) boxedOthers(tt types.Type) (named []*types.Named, missing []string) {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() {
		return nil, nil
	}
	for _, n := range c.basedCellTypes() {
		if !boxed(n) {
			continue
		}
		if m, _ := types.MissingMethod(n, it, true); m != nil {
			named = append(named, n)
			missing = append(missing, m.Name())
		}
	}
	return named, missing
}

// boxedOther is the test that tmp holds a value of n, one of boxedOthers:
// HasType(tmp, "N") && !LaterMethods(tmp, ...). The code asserting may
// be a method, not compiled again, and a later cell may have given n the
// interface's methods (see laterMethods): that stops the cell rather
// than said no.
//
// From an interface with methods the cell declares, the value is put in
// an any first, which keeps its box: yaegi hands a native function such
// an interface's value bare (d.(interface{ Zero() }) of a D holding an N,
// Zero on *N, passed, silently).
func (c *Cell) boxedOther(tmp func() *ast.Ident, from, tt types.Type, n *types.Named, pos token.Pos) ast.Expr {
	subject := func() ast.Expr {
		if from != nil && cellTypeOrIfaceLit(from) && !emptyIface(from) {
			return sliceElem(ident("any", pos), tmp())
		}
		return tmp()
	}
	test := hasTypeCall(subject(), n, pos)
	if later := c.laterMethods(tmp, tt, pos); later != nil {
		later.(*ast.CallExpr).Args[0] = subject()
		test = &ast.BinaryExpr{X: test, OpPos: pos, Op: token.LAND, Y: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: later}}
	}
	return test
}

// basedImplementer refuses the cell when a cell type that is not a struct
// and that the interpreter keeps bare in an interface (an instance of type
// Names[T any] []T, see boxed) implements tt, an interface the cell declares with
// no native twin: the interpreter's assertion from a native interface
// passes such a value and then panics in reflect.Set putting it in tt.
// A type on a basic type with methods is in a box naming it: see
// boxedImplementers.
func (c *Cell) basedImplementer(tt types.Type, pos token.Pos) bool {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() || !cellTypeOrIfaceLit(tt) || c.nativeIface(tt, pos) != nil {
		return false
	}
	for _, n := range c.basedCellTypes() {
		if boxed(n) {
			continue
		}
		if types.Implements(n, it) || types.Implements(types.NewPointer(n), it) {
			b := basedCheck{c: c}
			c.Fail(pos, "cannot take %s out of an interface as %s: the interpreter loses its methods there; %s",
				an(b.described(n)), b.name(tt), b.redeclare(n))
			return true
		}
	}
	return false
}

// boxedImplementers are the types on a basic type with methods (type
// Celsius float64) that implement tt, an interface with methods, each with
// the test that a value is one: the interpreter's own assertion to an
// interface the cell declares panics in reflect.Set on such a value, and
// one to a native interface (fmt.Stringer, error) builds its wrapper from
// the expression that boxed the value, evaluated again in the frame of the
// assertion (interp/run.go:414, genInterfaceWrapper(val.node, rtype)(f)):
// a value boxed in another function, or in the helper that asserts it,
// crashed ("Method on nil interface value") or was another one. So it is
// asserted to the type, checked by the name its box carries, and
// converted where it is. (tmp nil: the types alone.)
func (c *Cell) boxedImplementers(tmp func() *ast.Ident, from, tt types.Type, pos token.Pos) (named []*types.Named, tests []ast.Expr) {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() {
		return nil, nil
	}
	for _, n := range c.basedCellTypes() {
		if !boxed(n) || !types.Implements(n, it) {
			continue
		}
		if tx, ok := c.TypeExpr(n, pos); ok {
			named = append(named, n)
			if tmp != nil && assertable(from, n) { // (tmp.(n) compiles)
				// Or in another native interface's wrapper, with its box
				// (see boxConv): asserted out of it.
				tx2, _ := c.TypeExpr(n, pos)
				tests = append(tests, &ast.BinaryExpr{X: hasTypeCall(tmp(), n, pos), OpPos: pos, Op: token.LAND,
					Y: &ast.ParenExpr{Lparen: pos, X: &ast.BinaryExpr{X: asserts(tmp(), tx), OpPos: pos, Op: token.LOR, Y: asserts(inWrapperCall(tmp()), tx2)}, Rparen: pos}})
			}
		}
	}
	return named, tests
}

// basedPointers are the pointers to cell types other than structs (*Stack
// with type Stack []int, *Count with type Count int) that implement tt, an
// interface with methods, and that a value of from can hold. yaegi v0.16.1
// keeps such a pointer in a native interface (var st fmt.Stringer =
// &Stack{1}) as its wrapper with that interface's methods only, and its
// own assertion to tt asked the wrapper (st.(Pusher) was false where Go
// says true); asserted to the pointer type first, the value is found.
func (c *Cell) basedPointers(from, tt types.Type) []types.Type {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() || from == nil || emptyIface(from) {
		// (From an any, the interpreter's assertion to *Stack takes a
		// *[]int for one: a plain pointer passed as the cell's type.)
		return nil
	}
	var out []types.Type
	for _, n := range c.basedCellTypes() {
		if p := types.NewPointer(n); boxable(n) && types.Implements(p, it) && assertable(from, p) {
			out = append(out, p)
		}
	}
	return out
}

// hasSome reports whether t has a method of the interface it.
func hasSome(t types.Type, it *types.Interface) bool {
	return methodsNamed(t, it) > 0
}

// methodsNamed is how many of it's methods t has a method of the name of.
func methodsNamed(t types.Type, it *types.Interface) int {
	ms := types.NewMethodSet(t)
	n := 0
	for i := range it.NumMethods() {
		if ms.Lookup(it.Method(i).Pkg(), it.Method(i).Name()) != nil {
			n++
		}
	}
	return n
}

// cellStruct is a cell struct type (or a pointer to one) as source, with
// the first method of an interface it lacks.
type cellStruct struct {
	x       ast.Expr
	missing string
}

// basedInCellIface are the cell types other than structs (type Num int,
// type Mex []Node, and pointers to them) whose values a value of from, an
// interface the cell declares, can hold, when tt is a native interface
// (fmt.Stringer, io.Reader): those that implement tt, and the others with
// the first method they lack, as source at pos. yaegi v0.16.1's own
// assertion of such a value held in a cell interface to a native
// interface dereferences nil (interp/run.go:414, genInterfaceWrapper on
// the valueInterface's node), so each is asserted to by its type, which a
// cell interface keeps exactly, and converted where it is.
func (c *Cell) basedInCellIface(tmp func() *ast.Ident, from, tt types.Type, pos token.Pos) (impls, others []basedTry) {
	if !cellIfaceToNative(from, tt) {
		return nil, nil
	}
	fromIface := from.Underlying().(*types.Interface)
	it := tt.Underlying().(*types.Interface)
	for _, n := range c.basedCellTypes() {
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if !types.AssertableTo(fromIface, t) {
				continue
			}
			tx, ok := c.TypeExpr(t, pos)
			if !ok {
				continue
			}
			// The name first: the assertion passes a value of another
			// type on the same underlying type (a Bare(5) as a Num). The
			// value goes to grundyrt as interface{}(x): passed as it is, yaegi's
			// wrapper of it, made later, panicked in reflect.Set.
			named := func() ast.Expr { return hasTypeCall(anyOf(tmp(), pos), t, pos) }
			try := basedTry{t: t, x: tx, test: &ast.BinaryExpr{X: named(), OpPos: pos, Op: token.LAND, Y: asserts(tmp(), tx)}, check: named()}
			if m, _ := types.MissingMethod(t, it, true); m != nil {
				try.missing = m.Name()
				others = append(others, try)
			} else {
				impls = append(impls, try)
			}
		}
	}
	return impls, others
}

// anyOf is interface{}(x): a value of a cell interface type handed to
// grundyrt as any, converted first (passed as it is, it lost its type:
// see basedInCellIface).
func anyOf(x ast.Expr, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
}

// basedTry is a type basedInCellIface lists: as source, the test that a
// value is one, the check on the name alone, and the method it lacks.
type basedTry struct {
	t           types.Type
	x           ast.Expr
	test, check ast.Expr
	missing     string
}

// cellIfaceToNative reports whether from is an interface type with
// methods the cell declares and tt a native interface type with methods:
// an assertion basedInCellIface serves.
func cellIfaceToNative(from, tt types.Type) bool {
	if from == nil || tt == nil || !cellTypeOrIfaceLit(from) || cellTypeOrIfaceLit(tt) || emptyIface(tt) || !types.IsInterface(tt) {
		return false
	}
	_, ok := from.Underlying().(*types.Interface)
	return ok
}

// cellTypeOrIfaceLit reports whether tt is a type the cells declare (of
// any kind: callers that want an interface ask IsInterface too) or an
// unnamed interface type with methods: yaegi puts no native value in an
// interface of either.
func cellTypeOrIfaceLit(tt types.Type) bool {
	if typecheck.IsCellType(tt) {
		return true
	}
	it, lit := types.Unalias(tt).(*types.Interface)
	return lit && !it.Empty()
}

// nativeIface is a native interface type with the method set of the
// interface type tt (the interpreter can put a native value in it), as
// source at pos; nil when there is none.
func (c *Cell) nativeIface(tt types.Type, pos token.Pos) ast.Expr {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() {
		return nil
	}
	if types.Identical(it, typesError.Underlying()) {
		return ident("error", pos)
	}
	if p := c.Types.Import(prelude.Runtime); p != nil {
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok && tn.Exported() && types.Identical(tn.Type().Underlying(), it) {
				return &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(name, pos)}
			}
		}
	}
	for _, path := range []string{"fmt", "io", "sort"} {
		p := c.Types.Import(path)
		if p == nil {
			continue
		}
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok && tn.Exported() && types.Identical(tn.Type().Underlying(), it) {
				if tx, ok := c.TypeExpr(tn.Type(), pos); ok {
					return tx
				}
			}
		}
	}
	return nil
}

// matchesInterface is the condition that tmp holds a value of the
// interface type t: a value of a cell struct type that implements it, or,
// not being a value of another cell struct type, as the interpreter
// asserts it or as a native value of the same method set.
func (c *Cell) matchesInterface(tmp func() *ast.Ident, from types.Type, t ast.Expr, tt types.Type) ast.Expr {
	pos := t.Pos()
	if c.basedImplementer(tt, pos) {
		return nil
	}
	or := func(x, y ast.Expr) ast.Expr {
		if x == nil {
			return y
		}
		return &ast.BinaryExpr{X: x, OpPos: pos, Op: token.LOR, Y: y}
	}
	impls, _, others := c.cellStructs(from, tt, pos)
	cond := asserts(tmp(), t)
	if later := c.laterMethods(tmp, tt, pos); later != nil {
		cond = or(later, cond)
	}
	if cellIfaceToNative(from, tt) {
		// A library value in the cell's interface (see ifaceTries).
		cond = or(asserts(unwrapCall(tmp(), pos), t), cond)
	}
	if cellTypeOrIfaceLit(tt) {
		if n := c.nativeIface(tt, pos); n != nil {
			cond = or(cond, asserts(tmp(), n))
		}
		if tries, names := c.nativeImplementers(from, tt, pos); len(tries) > 0 {
			cond = or(cond, nativeIn(tmp(), names, pos))
		}
	}
	basedImpls, basedOthers := c.basedInCellIface(tmp, from, tt, pos)
	var not ast.Expr
	for _, o := range others {
		not = or(not, asserts(tmp(), o.x))
	}
	for _, o := range basedOthers {
		not = or(not, o.test)
	}
	if !cellIfaceToNative(from, tt) {
		bo, _ := c.boxedOthers(tt)
		for _, n := range bo {
			not = or(not, c.boxedOther(tmp, from, tt, n, pos))
		}
	}
	if not != nil {
		cond = &ast.BinaryExpr{X: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{Lparen: pos, X: not, Rparen: pos}}, OpPos: pos, Op: token.LAND, Y: &ast.ParenExpr{Lparen: pos, X: cond, Rparen: pos}}
	}
	if stop := c.nativeMethods(tmp, tt, pos); stop != nil {
		cond = or(cond, stop)
	}
	var first ast.Expr
	for _, impl := range impls {
		first = or(first, asserts(tmp(), impl))
		if basedWrapperSubject(from) {
			// In another native interface's wrapper (a *Tape held in an
			// io.Reader, then in an any; see nilAsserts).
			first = or(first, asserts(inWrapperCall(tmp()), impl))
		}
	}
	for _, b := range basedImpls {
		first = or(first, b.test)
	}
	if !cellIfaceToNative(from, tt) {
		_, boxedTests := c.boxedImplementers(tmp, from, tt, pos)
		for _, test := range boxedTests {
			first = or(first, test)
		}
		for _, p := range c.basedPointers(from, tt) {
			if tx, ok := c.TypeExpr(p, pos); ok {
				first = or(first, asserts(tmp(), tx))
			}
		}
	}
	if first == nil {
		return cond
	}
	return or(first, cond)
}

// nativeImplementers are the types (T or *T) of the packages whose values
// the cell may meet (see candidatePackages) that implement tt, an
// interface the cell declares with no native twin, as source at pos: the
// interpreter's own assertion fails on a native value, but converts one of
// a type it is told. At most maxNativeImplementers, in the packages'
// order; nativeMethods stops on the others. Only types a value of the
// type from (the static type of the value asserted; nil for any) can hold
// are listed. names lists them for grundyrt.NativeIn (see nativeIn).
func (c *Cell) nativeImplementers(from, tt types.Type, pos token.Pos) (out []ast.Expr, names string) {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() || !cellTypeOrIfaceLit(tt) || c.nativeIface(tt, pos) != nil || c.Types.Pkg == nil {
		return nil, ""
	}
	var fromIface *types.Interface
	if from != nil {
		fromIface, _ = from.Underlying().(*types.Interface)
	}
	names = "\n"
	for _, p := range c.candidatePackages() {
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			n, ok := tn.Type().(*types.Named)
			if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
				continue
			}
			for _, t := range []types.Type{n, types.NewPointer(n)} {
				if !types.Implements(t, it) || fromIface != nil && !types.AssertableTo(fromIface, t) {
					continue
				}
				if tx, ok := c.TypeExpr(t, pos); ok && len(out) < maxNativeImplementers {
					if c.shadowedPackage(tx, pos) {
						// (a parameter named games): an alias declared
						// at the cell's top level names the type.
						tx = ident(c.instanceAlias(tx), pos)
					}
					out = append(out, tx)
					star := ""
					if _, ptr := t.(*types.Pointer); ptr {
						star = "*"
					}
					names += star + p.Path() + "." + n.Obj().Name() + "\n"
				}
			}
		}
	}
	return out, names
}

// nativeIn is grundyrt.NativeIn(tmp, names): whether tmp holds a value of
// one of the types nativeImplementers listed, in one call, before (or
// instead of) an assertion to each.
func nativeIn(tmp ast.Expr, names string, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTNativeIn, pos)}, Lparen: pos,
		Args: []ast.Expr{tmp, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(names)}}, Rparen: pos}
}

// shadowedPackage reports whether a package name x uses (games in
// *games.SetGame) is something else where pos is (a parameter or a
// variable named games), so that x cannot be written there.
func (c *Cell) shadowedPackage(x ast.Expr, pos token.Pos) bool {
	if c.Types.Pkg == nil {
		return false
	}
	scope := c.Types.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	shadowed := false
	ast.Inspect(x, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if _, obj := scope.LookupParent(id.Name, pos); obj != nil {
					if _, pkg := obj.(*types.PkgName); !pkg {
						shadowed = true
					}
				}
			}
			return false
		}
		return !shadowed
	})
	return shadowed
}

// candidatePackages are the packages whose values an assertion in the
// cell may meet: those it names (usedPackages), then those of the types
// of the session's variables and functions it uses (t, a *solve.Table
// made in an earlier cell, in a cell that never names solve), then
// grundy's library packages, whose values any cell may hold (a function
// switching on types, declared before the values it meets).
func (c *Cell) candidatePackages() []*types.Package {
	var out []*types.Package
	seen := map[string]bool{}
	add := func(p *types.Package) {
		if p != nil && p != c.Types.Pkg && p.Path() != "main" && !seen[p.Path()] {
			seen[p.Path()] = true
			out = append(out, p)
		}
	}
	for _, p := range c.usedPackages() {
		add(p)
	}
	var objs []types.Object
	for _, obj := range c.Types.Uses {
		switch obj.(type) {
		case *types.Var, *types.Func:
			objs = append(objs, obj)
		}
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
	visited := map[types.Type]bool{}
	for _, obj := range objs {
		for _, p := range typePackages(obj.Type(), visited) {
			add(p)
		}
	}
	for _, imp := range prelude.Imports {
		if strings.HasPrefix(imp.Path, "grundy/") {
			add(c.Types.Import(imp.Path))
		}
	}
	return out
}

// typePackages are the packages of the named types t is built of (its
// elements, keys, parameters and results; not a struct's fields), each
// type visited once.
func typePackages(t types.Type, visited map[types.Type]bool) []*types.Package {
	if t == nil || visited[t] {
		return nil
	}
	visited[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil {
			return []*types.Package{p}
		}
	case *types.Pointer:
		return typePackages(t.Elem(), visited)
	case *types.Slice:
		return typePackages(t.Elem(), visited)
	case *types.Array:
		return typePackages(t.Elem(), visited)
	case *types.Chan:
		return typePackages(t.Elem(), visited)
	case *types.Map:
		return append(typePackages(t.Key(), visited), typePackages(t.Elem(), visited)...)
	case *types.Signature:
		var out []*types.Package
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				out = append(out, typePackages(tup.At(i).Type(), visited)...)
			}
		}
		return out
	}
	return nil
}

// usedPackages are the packages whose names the cell uses, by path.
func (c *Cell) usedPackages() []*types.Package {
	seen := map[string]*types.Package{}
	for _, obj := range c.Types.Uses {
		if pn, ok := obj.(*types.PkgName); ok {
			seen[pn.Imported().Path()] = pn.Imported()
		} else if obj != nil && obj.Pkg() != nil && obj.Pkg() != c.Types.Pkg {
			seen[obj.Pkg().Path()] = obj.Pkg()
		}
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]*types.Package, len(paths))
	for i, p := range paths {
		out[i] = seen[p]
	}
	return out
}

// maxNativeImplementers bounds the tries of nativeImplementers: each is a
// call in every assertion. (solve's eight result types and known's and
// entail's have HTML: a cell's interface{ HTML() string } meets 16.)
const maxNativeImplementers = 16

// nativeMethods is grundyrt.NativeMethods(tmp, "I", methods): false, or a
// stop on a native value with the methods of tt, an interface the cell
// declares that has no native twin; nil when tt has one.
func (c *Cell) nativeMethods(tmp func() *ast.Ident, tt types.Type, pos token.Pos) ast.Expr {
	if !cellTypeOrIfaceLit(tt) || c.nativeIface(tt, pos) != nil {
		return nil
	}
	name := &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(reflectString(tt, false))}
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTNativeMethods, pos)},
		Args: []ast.Expr{tmp(), name, methodNames(tt, pos)}}
}

// laterMethods is grundyrt.LaterMethods(tmp, "I", methods, known): false,
// or a stop on a value of a cell type that has tt's methods but was not
// among the types that had them here (known), which the tries before the
// interpreter's own assertion ask for by name. Functions are compiled
// again when a later cell declares types (the engine's replay.go); a
// method is not, nor what a method calls or a function value kept from
// before, so its assertion fell back on the interpreter's for a type a
// later cell declared, or gave methods, and said no (x.(fmt.Stringer) of
// a later C with String), or yes with a nil value (x.(games.Game) of a
// later Cap int). nil when tt is an empty interface or error (the error
// passes' own).
func (c *Cell) laterMethods(tmp func() *ast.Ident, tt types.Type, pos token.Pos) ast.Expr {
	it, ok := tt.Underlying().(*types.Interface)
	if !ok || it.Empty() || isError(tt) {
		return nil
	}
	if _, param := types.Unalias(tt).(*types.TypeParam); param {
		return nil
	}
	var named []*types.Named
	for _, tn := range slices.Concat(c.Types.CellTypes(), c.Types.LocalTypes()) {
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
			named = append(named, n)
		}
	}
	var known []string
	for _, n := range append(named, c.structInstances()...) {
		if methodsNamed(types.NewPointer(n), it) == it.NumMethods() {
			known = append(known, reflectName(n, false))
		}
	}
	var methods []string // (name and signature: see methodSignature)
	for i := range it.NumMethods() {
		methods = append(methods, it.Method(i).Name()+" "+methodSignature(it.Method(i).Type()))
	}
	// (One constant: grundyrt parses it once.)
	assertion := reflectString(tt, false) + "\n\n" + strings.Join(methods, "\n") + "\n\n" + strings.Join(known, "\n")
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTLaterMethods, pos)},
		Args: []ast.Expr{tmp(), &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(assertion)}}}
}

// asInterface is tmp's value as the interface type t, once matched:
//
//	func() T { if v, ok := tmp.(C1); ok { return v }; ...; if v, ok := tmp.(T); ok { return v }; return nil }()
func (c *Cell) asInterface(tmp func() *ast.Ident, from types.Type, t ast.Expr, tt types.Type) ast.Expr {
	pos := t.Pos()
	fail := func(string) []ast.Stmt {
		return []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos)}}}
	}
	body := c.ifaceTries(tmp, from, t, tt, fail, false, true)
	body = append(body, fail("")...)
	return called(funcLit(pos, t.End(), results(t), body...))
}

// assertable reports whether a value of the interface type from may hold
// a value of type t (Go compiles x.(t)); from nil: any.
func assertable(from, t types.Type) bool {
	if from == nil {
		return true
	}
	it, ok := from.Underlying().(*types.Interface)
	return !ok || types.AssertableTo(it, t)
}

// ifaceTries are the tries of tmp as the interface type t: as each cell
// struct type implementing t; then, for an interface the cell declares,
// fail (given the method missing) on a value of each other cell struct
// type (the interpreter's own assertion would pass it), then as a native interface of t's method set;
// then the interpreter's own assertion, after laterMethods' check unless
// matched (the value's case matched it: a type switch's binding). Each
// success returns the value (and true, with ok).
func (c *Cell) ifaceTries(tmp func() *ast.Ident, from types.Type, t ast.Expr, tt types.Type, fail func(missing string) []ast.Stmt, ok, matched bool) []ast.Stmt {
	pos := t.Pos()
	if c.basedImplementer(tt, pos) {
		return nil
	}
	impls, implTypes, others := c.cellStructs(from, tt, pos)
	var natives, implementers []ast.Expr
	var names string
	if cellTypeOrIfaceLit(tt) {
		if n := c.nativeIface(tt, pos); n != nil {
			natives = append(natives, n)
		}
		implementers, names = c.nativeImplementers(from, tt, pos)
	}
	var body []ast.Stmt
	var check ast.Expr     // a further condition on the next try's value
	var guard ast.Expr     // a condition tested before the next try asserts
	var convert types.Type // the next try converts a value of this type in a call (callCopy's)
	rewrap := false
	// The cell's struct types may be asserted from yaegi's wrapper.
	unwrap := false
	// A cell's struct value, of this type, goes to error as asError
	// converts it.
	var asErr types.Type
	// A library value may be in yaegi's valueInterface (it was in an
	// interface a cell declares before it was put in an any).
	unwrapNative := false
	try := func(a ast.Expr) {
		cond := ast.Expr(ident(okName, pos))
		if check != nil {
			cond = &ast.BinaryExpr{X: cond, OpPos: pos, Op: token.LAND, Y: check}
			check = nil
		}
		v := func() *ast.Ident { return ident(tempPrefix+"V", pos) }
		r := func() *ast.Ident { return ident(tempPrefix+"R", pos) }
		ret := []ast.Expr{r()}
		if ok {
			ret = append(ret, ident("true", pos))
		}
		// The value converted to t in a declaration of its own: yaegi
		// v0.16.1 fails converting it in a return of two results.
		val := ast.Expr(v())
		if convert != nil {
			from := convert
			convert = nil
			if call, ok := c.convCall(tt, from, a, v()); ok {
				val = call
			}
		} else if asErr != nil {
			// (a struct value converted to error as asError converts
			// one: yaegi's conversion keeps its last field, and a type
			// switch's case error bound a value errors.As found
			// nothing in)
			x := v()
			c.Types.Types[x] = types.TypeAndValue{Type: asErr}
			val = c.asError(x)
		}
		conv := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{r()}, Type: t, Values: []ast.Expr{val}}}}}
		then := []ast.Stmt{conv}
		if _, ptr := a.(*ast.StarExpr); rewrap && !ptr {
			then = append(then, &ast.ExprStmt{X: rewrapCall(r(), v(), pos)})
		}
		var x ast.Expr = tmp()
		if unwrap {
			x = inWrapperCall(x) // (see structAsserts)
		} else if unwrapNative {
			x = unwrapCall(x, pos) // (see inCellIface)
		}
		var st ast.Stmt = &ast.IfStmt{If: pos,
			Init: define(pos, []ast.Expr{v(), ident(okName, pos)}, &ast.TypeAssertExpr{X: x, Type: a, Lparen: pos, Rparen: pos}),
			Cond: cond,
			Body: &ast.BlockStmt{Lbrace: pos, List: append(then, &ast.ReturnStmt{Return: pos, Results: ret}), Rbrace: pos}}
		if guard != nil {
			st = ifThen(pos, guard, st)
			guard = nil
		}
		body = append(body, st)
	}
	// A cell struct's value converted to a native interface: the whole
	// value in yaegi's wrapper (see grundyrt.Rewrap).
	rewrap = c.isNativeIface(tt)
	// (from an any, or from a native interface with methods: a
	// fmt.Stringer holding a Pt, bound as an error by case error, was
	// yaegi's error of the Stringer's wrapper, which e.(Pt) said no to)
	unwrap = basedWrapperSubject(from)
	for i, a := range impls {
		// (Only for methods on the pointer: a nil *T with T's own
		// methods panics calling them, and _grundyAsError of such a
		// pointer finds none.)
		p, ptr := implTypes[i].(*types.Pointer)
		keepNil := ptr && (rewrap || isError(tt)) && !types.Implements(p.Elem(), tt.Underlying().(*types.Interface))
		if keepNil && unwrap {
			// A nil pointer is not in a wrapper: asserted as it is too.
			unwrap, convert = false, implTypes[i]
			try(a)
			unwrap = true
		}
		if keepNil {
			// Converted keeping a nil pointer (the interpreter made a
			// nil *E a nil error: a type switch's case error bound
			// <nil>, and v == nil).
			convert = implTypes[i]
		}
		if _, isStruct := implTypes[i].Underlying().(*types.Struct); isStruct && isError(tt) {
			asErr = implTypes[i]
		}
		try(a)
		asErr = nil
	}
	rewrap, unwrap = false, false
	if cellIfaceToNative(from, tt) {
		// From a cell interface, by the exact type it keeps.
		basedImpls, basedOthers := c.basedInCellIface(tmp, from, tt, pos)
		for _, b := range basedImpls {
			// Named before the assertion, and converted in a call of its
			// own: yaegi v0.16.1's wrapper, converted in this frame,
			// evaluates the node that made the value here again (its
			// String panicked in reflect.Set, "bool is not assignable to
			// int").
			guard, convert = b.check, b.t
			try(b.x)
		}
		for _, o := range basedOthers {
			body = append(body, &ast.IfStmt{If: pos, Cond: o.test,
				Body: &ast.BlockStmt{Lbrace: pos, List: fail(o.missing), Rbrace: pos}})
		}
	} else {
		boxed, _ := c.boxedImplementers(tmp, from, tt, pos)
		for _, n := range boxed {
			if !assertable(from, n) {
				// (games.Nim(2).(Shower): no Heap is a games.Game; x.(Heap)
				// would not compile; nor would w.(Count) with w an
				// io.Writer that only a *Count is: basedPointers' below)
				continue
			}
			// A nil slice or map stays a typed nil in a native
			// interface, as convCall converts it (yaegi made it a nil
			// interface: x.(fmt.Stringer) of an any holding a nil Poly).
			keepNil := nilable(n) && c.isNativeIface(tt) && !isError(tt)
			if tx, ok := c.TypeExpr(n, pos); ok {
				check = hasTypeCall(tmp(), n, pos)
				if keepNil {
					convert = n
				}
				try(tx)
			}
			if tx, ok := c.TypeExpr(n, pos); ok && basedWrapperSubject(from) {
				// In another native interface's wrapper, with its box
				// (a Row held in a sort.Interface, then in an any,
				// asserted to fmt.Stringer; see boxConv).
				guard, unwrap = hasTypeCall(tmp(), n, pos), true // (named first: InWrapper only then)
				if keepNil {
					convert = n
				}
				try(tx)
				unwrap = false
			}
		}
		for _, p := range c.basedPointers(from, tt) {
			if tx, ok := c.TypeExpr(p, pos); ok {
				try(tx)
			}
		}
	}
	for _, o := range others {
		body = append(body, &ast.IfStmt{If: pos, Cond: asserts(tmp(), o.x),
			Body: &ast.BlockStmt{Lbrace: pos, List: fail(o.missing), Rbrace: pos}})
	}
	for _, a := range natives {
		try(a)
	}
	if len(implementers) > 0 {
		// Asserted to each only when one of them is there.
		start := len(body)
		unwrapNative = true
		for _, a := range implementers {
			try(a)
		}
		unwrapNative = false
		tries := append([]ast.Stmt(nil), body[start:]...)
		body = append(body[:start], ifThen(pos, nativeIn(tmp(), names, pos), tries...))
	}
	if later := c.laterMethods(tmp, tt, pos); later != nil && !matched {
		body = append(body, &ast.ExprStmt{X: later})
	}
	if cellIfaceToNative(from, tt) {
		// A library value in a cell's interface (var n Named =
		// games.CN(4, 2); n.(fmt.Stringer)): yaegi's assertion of its
		// valueInterface to a native interface said no; the value inside
		// is asserted.
		unwrapNative = true
		try(t)
		unwrapNative = false
	}
	try(t)
	return body
}
