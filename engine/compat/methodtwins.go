package compat

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// methodTwins refuses a cell that instantiates, in the compilation that
// declares them, two generic types of the cell that have a method of the
// same name with the same type arguments (Stack[int] and Queue[int], both
// with Pop; Set[int] and List[int], both with String). yaegi v0.16.1
// keeps the syntax of an instantiated generic method by the name in the
// method's declaration and the type arguments only (interp/generic.go:22,
// genAST's sname "Pop[int]"), not by its receiver's type, so the second
// type got the first's method: a compile error ("invalid operation:
// mismatched types bool and int"), a panic in reflect.Set, or, where the
// two structs are alike, the other method's answer. Once the cell's
// declarations have compiled, the engine writes the type's name into each
// generic method's declared name (engine.keyGenericMethods: Queue.Pop),
// so instances made by the cell's statements and by later cells have
// their own; what is refused are twins made by the declarations
// themselves: in a function's body, a variable's initializer or a type,
// or in a generic function (Stack[T] and Queue[T]) that one of those
// calls.
var methodTwins = Pass{
	Name:     "methodtwins",
	Run:      runMethodTwins,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"generic_method_twins_refused"},
}

func runMethodTwins(c *Cell) {
	if c.Decls == nil {
		return
	}
	type instance struct {
		origin *types.Named
		name   string
	}
	c.First = GenericFirst(c.Decls.Decls)
	first := map[*types.TypeName]bool{}
	for _, name := range c.First {
		if tn, ok := c.Types.Pkg.Scope().Lookup(name).(*types.TypeName); ok {
			first[tn] = true
		}
	}
	made := c.madeByDecls()
	byArgs := map[string][]instance{}
	for _, id := range c.instanceIDs() {
		tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
		if !ok || tn.Pkg() == nil || tn.Pkg().Path() != "main" || !made(id) {
			continue
		}
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		if !ok || n.TypeParams().Len() == 0 || n.NumMethods() == 0 || c.Types.Earlier(n.Obj().Name()) == n.Obj() || first[n.Obj()] {
			continue
		}
		targs := c.Types.Instances[id].TypeArgs
		var args []string
		scope := ""
		for i := range targs.Len() {
			if tp := typeIn(targs.At(i), isTypeParam); tp != nil && scope == "" {
				// Stack[T] and Queue[T] in one generic function or type
				// are instantiated together, with the same arguments,
				// whenever it is.
				scope = fmt.Sprintf(" %d", tp.(*types.TypeParam).Obj().Pos())
			}
			args = append(args, types.TypeString(targs.At(i), shortQualifier))
		}
		if len(args) == 0 {
			continue
		}
		list := strings.Join(args, ", ")
		name := n.Obj().Name() + "[" + list + "]"
		key := list + scope
		for _, other := range byArgs[key] {
			if other.origin == n {
				continue
			}
			if m := sharedMethodName(other.origin, n); m != "" {
				c.Fail(id.Pos(), "%s and %s both have a method %s: this interpreter compiles a generic type's method once for its name and type arguments, and the cell's declarations make both while they declare the types, so %s's %s would run %s's; make them in the cell's statements or a later cell, or give one of the methods another name (%s%s)",
					name, other.name, m, name, m, other.name, m, n.Obj().Name())
				return
			}
		}
		byArgs[key] = append(byArgs[key], instance{n, name})
	}
}

// madeByDecls reports whether an instance named at id is made when the
// cell's declarations compile: id is in one of them (a function's body,
// a variable's initializer, a type), or in a generic function or a
// generic type's method that another declaration instantiates.
func (c *Cell) madeByDecls() func(*ast.Ident) bool {
	type span struct {
		pos, end token.Pos
		obj      types.Object // the generic function, or the method's receiver type
	}
	var decls, generics []span
	for _, d := range c.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			if fd.Type.TypeParams != nil {
				generics = append(generics, span{fd.Pos(), fd.End(), c.Types.Defs[fd.Name]})
				continue
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				if tn := recvTypeName(c, fd.Recv.List[0].Type); tn != nil {
					if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
						generics = append(generics, span{fd.Pos(), fd.End(), tn})
						continue
					}
				}
			}
		}
		decls = append(decls, span{d.Pos(), d.End(), nil})
	}
	made := map[types.Object]bool{}
	for _, s := range decls {
		for id, inst := range c.Types.Instances {
			if s.pos <= id.Pos() && id.Pos() < s.end && inst.TypeArgs.Len() > 0 {
				if obj := c.Types.Uses[id]; obj != nil {
					made[obj] = true
				}
			}
		}
	}
	return func(id *ast.Ident) bool {
		for _, s := range decls {
			if s.pos <= id.Pos() && id.Pos() < s.end {
				return true
			}
		}
		for _, s := range generics {
			if s.pos <= id.Pos() && id.Pos() < s.end {
				return s.obj != nil && made[s.obj]
			}
		}
		return false
	}
}

// recvTypeName is the type a method's receiver expression names
// (Stack in *Stack[T]); nil if none.
func recvTypeName(c *Cell, e ast.Expr) *types.TypeName {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		tn, _ := c.Types.Uses[id].(*types.TypeName)
		return tn
	}
	return nil
}

// sharedMethodName is the name of a method a and b, generic types, both
// declare; "" if none.
func sharedMethodName(a, b *types.Named) string {
	for i := range a.NumMethods() {
		m := a.Method(i).Name()
		for j := range b.NumMethods() {
			if b.Method(j).Name() == m {
				return m
			}
		}
	}
	return ""
}

// GenericFirst names the generic types of decls (a cell's declarations,
// or a rebuilt session's) that the engine declares, with their methods,
// in a compilation before the others (FirstDecls): once that compilation
// has declared their methods, the engine keys them apart
// (engine.keyGenericMethods), so the instances the other declarations
// make (a variable of type *Stack[int], a function making a Queue[int])
// get methods of their own. A generic type qualifies when its
// declaration and its methods' signatures name no other declaration of
// decls than such types and interfaces that do the same (Stack[T any],
// Set[T Number] with type Number interface{ ~int | ~float64 }): the
// first compilation cannot see the others. The interfaces named go first
// too; so do generic struct types, whose instances the engine makes
// before the declarations using them (engine.makeInstances). Nil when no
// generic type with methods, or generic struct type, qualifies.
func GenericFirst(decls []ast.Decl) []string {
	declared := map[string]bool{}
	specs := map[string]*ast.TypeSpec{}
	sigs := map[string][]ast.Node{} // a type's methods' receivers and signatures
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				declared[d.Name.Name] = true
				continue
			}
			name := recvName(d.Recv.List[0].Type)
			sigs[name] = append(sigs[name], d.Recv, d.Type)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					declared[sp.Name.Name] = true
					if sp.TypeParams != nil {
						specs[sp.Name.Name] = sp
					} else if _, ok := sp.Type.(*ast.InterfaceType); ok && sp.Assign == 0 {
						specs[sp.Name.Name] = sp
					}
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						declared[id.Name] = true
					}
				}
			}
		}
	}
	// Drop the candidates naming another declaration, until none does.
	for changed := true; changed; {
		changed = false
		for name, sp := range specs {
			if sp.TypeParams == nil && len(sigs[name]) > 0 {
				delete(specs, name) // an interface's own methods: not a candidate's
				changed = true
				continue
			}
			for _, n := range append([]ast.Node{sp}, sigs[name]...) {
				if namesOther(n, name, declared, specs) {
					delete(specs, name)
					changed = true
					break
				}
			}
		}
	}
	var out []string
	worth := false
	for name, sp := range specs {
		out = append(out, name)
		_, isStruct := sp.Type.(*ast.StructType)
		worth = worth || sp.TypeParams != nil && (len(sigs[name]) > 0 || isStruct)
	}
	if !worth {
		return nil
	}
	sort.Strings(out)
	return out
}

// namesOther reports whether n, of the declaration of self, names a
// declaration of declared other than self and the candidates.
func namesOther(n ast.Node, self string, declared map[string]bool, candidates map[string]*ast.TypeSpec) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			// (Its names, of fields and parameters, are its own.)
			found = found || namesOther(n.Type, self, declared, candidates)
			return false
		case *ast.TypeSpec:
			if n.TypeParams != nil {
				found = found || namesOther(n.TypeParams, self, declared, candidates)
			}
			found = found || namesOther(n.Type, self, declared, candidates)
			return false
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && declared[id.Name] && candidates[id.Name] == nil {
				found = true // (a package's name is not declared)
			}
			return false
		case *ast.Ident:
			if n.Name != self && declared[n.Name] && candidates[n.Name] == nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// FirstDecls cuts decls into the declarations of the types first names
// (GenericFirst) and their methods, and the rest.
func FirstDecls(decls []ast.Decl, first []string) (firsts, rest []ast.Decl) {
	if len(first) == 0 {
		return nil, decls
	}
	isFirst := map[string]bool{}
	for _, name := range first {
		isFirst[name] = true
	}
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && isFirst[recvName(d.Recv.List[0].Type)] {
				firsts = append(firsts, d)
				continue
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				break
			}
			var mine, others []ast.Spec
			for _, sp := range d.Specs {
				if isFirst[sp.(*ast.TypeSpec).Name.Name] {
					mine = append(mine, sp)
				} else {
					others = append(others, sp)
				}
			}
			if len(mine) > 0 {
				g := *d
				g.Specs = mine
				firsts = append(firsts, &g)
			}
			if len(others) == 0 {
				continue
			}
			if len(mine) > 0 {
				g := *d
				g.Specs = others
				rest = append(rest, &g)
				continue
			}
		}
		rest = append(rest, d)
	}
	return firsts, rest
}
