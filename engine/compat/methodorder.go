package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// methodOrder: the methods of a cell's generic type are declared right
// after the type, before the cell's other functions. yaegi v0.16.1 makes
// an instance of a generic type with the methods declared so far
// (interp/type.go:1130, genType, over lt.method): a function declared
// before the methods whose signature names an instance (func flip(p
// Pair[int, int])) made Pair[int, int] without them, and a method making
// another instance (Pair[A, A] in a method of Pair[A, B]) then failed with
// "undefined type for A" (interp/generic.go:98). Go does not care in
// which order a package declares its functions. Among them, the methods
// a method calls come first (see calleesFirst), and a method handing its
// receiver on as a value comes after the others (see passesRecv).
var methodOrder = Pass{
	Name:     "methodorder",
	Run:      runMethodOrder,
	Kinds:    []ast.Node{(*ast.FuncDecl)(nil)},
	Snippets: []string{"generics_method_after_instance_func", "generics_methods_calling_each_other", "generic_method_passing_receiver_first"},
}

func runMethodOrder(c *Cell) {
	if c.Decls == nil {
		return
	}
	generic := map[string]bool{}
	for _, d := range c.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); ts.TypeParams != nil {
					generic[ts.Name.Name] = true
				}
			}
		}
	}
	methods := map[string][]ast.Decl{}
	var rest []ast.Decl
	for _, d := range c.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
			if t := recvName(fd.Recv.List[0].Type); generic[t] {
				methods[t] = append(methods[t], d)
				continue
			}
		}
		rest = append(rest, d)
	}
	if len(methods) == 0 {
		return
	}
	out := make([]ast.Decl, 0, len(c.Decls.Decls))
	for _, d := range rest {
		out = append(out, d)
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				name := sp.(*ast.TypeSpec).Name.Name
				ordered, caller, callee := calleesFirst(methods[name], func(sel *ast.SelectorExpr) bool { return c.mayCallMethodOf(sel, name) })
				if caller != nil {
					c.Fail(caller.Pos(), "methods %s and %s of the generic type %s call each other, which this interpreter cannot compile (it compiles an instance's methods one after another, each seeing only those before it); make one of them a function taking the receiver (func %s[...](x *%s[...]) ...), or have one method do both",
						callee.Name.Name, caller.Name.Name, name, caller.Name.Name, name)
					return
				}
				out = append(out, ordered...)
			}
		}
	}
	c.Decls.Decls = out
}

// calleesFirst orders the methods of one generic type so that a method
// comes after the methods of the type it calls (x.Push(v) in PushAll),
// keeping their order otherwise: yaegi compiles a method of an instance
// with the methods declared before it, and a call of a later one failed
// with "undefined selector: Push". Methods that call each other in a
// cycle cannot be ordered so (a method calling itself can): the first
// such call is returned (caller, callee) for the cell to be refused. A
// call is one of a method of the type by its name, unless mayCall tells
// otherwise (maps.Keys(o.m) in a method All is no call of the type's
// Keys).
func calleesFirst(ms []ast.Decl, mayCall func(sel *ast.SelectorExpr) bool) (out []ast.Decl, caller, callee *ast.FuncDecl) {
	byName := methodsByName(ms)
	const visiting, done = 1, 2
	state := map[*ast.FuncDecl]int{}
	var visit func(fd *ast.FuncDecl)
	visit = func(fd *ast.FuncDecl) {
		if state[fd] != 0 {
			return
		}
		state[fd] = visiting
		for _, g := range methodCallees(fd, byName, mayCall, false) {
			if state[g] == visiting && caller == nil {
				caller, callee = fd, g
			}
			visit(g)
		}
		state[fd] = done
		out = append(out, fd)
	}
	for _, d := range ms {
		visit(d.(*ast.FuncDecl))
	}
	if caller == nil {
		out = receiversLast(out, byName, mayCall)
	}
	return out, caller, callee
}

// methodsByName are the methods ms by their names.
func methodsByName(ms []ast.Decl) map[string]*ast.FuncDecl {
	byName := map[string]*ast.FuncDecl{}
	for _, d := range ms {
		fd := d.(*ast.FuncDecl)
		byName[fd.Name.Name] = fd
	}
	return byName
}

// methodCallees are the methods of byName that fd calls (see
// calleesFirst), in the order it names them, or with values also those
// whose method values it takes (filter(o.Has)).
func methodCallees(fd *ast.FuncDecl, byName map[string]*ast.FuncDecl, mayCall func(sel *ast.SelectorExpr) bool, values bool) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	if fd.Body == nil {
		return nil
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		var sel *ast.SelectorExpr
		if call, ok := n.(*ast.CallExpr); ok && !values {
			sel, _ = ast.Unparen(call.Fun).(*ast.SelectorExpr)
		} else if values {
			sel, _ = n.(*ast.SelectorExpr)
		}
		if sel != nil {
			if g := byName[sel.Sel.Name]; g != nil && g != fd && mayCall(sel) {
				out = append(out, g)
			}
		}
		return true
	})
	return out
}

// receiversLast moves each method that hands its receiver on as a value
// (fmt.Fprint(t, v), return t as an io.Writer: see passesRecv) after the
// methods of the type that do not call it: yaegi wraps the receiver for
// an interface with the methods declared so far, and one declared after
// it was missing ("index out of range [0] with length 0" at run time).
// It stays before the methods that call it or take its method value.
func receiversLast(ms []ast.Decl, byName map[string]*ast.FuncDecl, mayCall func(sel *ast.SelectorExpr) bool) []ast.Decl {
	calls := func(from, to *ast.FuncDecl) bool { // (transitively)
		seen := map[*ast.FuncDecl]bool{}
		var walk func(f *ast.FuncDecl) bool
		walk = func(f *ast.FuncDecl) bool {
			if seen[f] {
				return false
			}
			seen[f] = true
			for _, g := range methodCallees(f, byName, mayCall, true) {
				if g == to || walk(g) {
					return true
				}
			}
			return false
		}
		return walk(from)
	}
	out := slices.Clone(ms)
	for i := len(out) - 1; i >= 0; i-- {
		fd := out[i].(*ast.FuncDecl)
		if !passesRecv(fd) {
			continue
		}
		j := i
		for j+1 < len(out) && !calls(out[j+1].(*ast.FuncDecl), fd) {
			j++
		}
		if j > i {
			out = append(out[:i], append(slices.Clone(out[i+1:j+1]), append([]ast.Decl{fd}, out[j+1:]...)...)...)
		}
	}
	return out
}

// passesRecv reports whether a method hands its receiver on as a value:
// as an argument of a call or a conversion (not a builtin's), a result,
// a value assigned, sent or put in a composite literal.
func passesRecv(fd *ast.FuncDecl) bool {
	if fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return false
	}
	name := fd.Recv.List[0].Names[0].Name
	if name == "_" {
		return false
	}
	recv := func(e ast.Expr) bool {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X // (&t of a value receiver)
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == name
	}
	return contains(fd.Body, false, func(n ast.Node) bool {
		var vals []ast.Expr
		switch x := n.(type) {
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); !ok || !builtinNames[id.Name] {
				vals = x.Args
			}
		case *ast.ReturnStmt:
			vals = x.Results
		case *ast.AssignStmt:
			vals = x.Rhs
		case *ast.ValueSpec:
			vals = x.Values
		case *ast.SendStmt:
			vals = []ast.Expr{x.Value}
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				vals = append(vals, el)
			}
		}
		return slices.ContainsFunc(vals, recv)
	})
}

// builtinNames are the builtin functions, whose arguments go into no
// interface.
var builtinNames = map[string]bool{"len": true, "cap": true, "append": true, "copy": true, "delete": true, "clear": true, "min": true, "max": true, "new": true, "make": true, "close": true}

// mayCallMethodOf reports whether sel, the function of a call, may name a
// method of the cell's generic type typ: not a package's function
// (maps.Keys), a field, or a method of another type, by the oracle; a
// selector the oracle did not type (a pass wrote it) may.
func (c *Cell) mayCallMethodOf(sel *ast.SelectorExpr, typ string) bool {
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		if _, pkg := c.Types.ObjectOf(id).(*types.PkgName); pkg {
			return false
		}
	}
	s, ok := c.Types.Selections[sel]
	if !ok {
		return true
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Origin().Obj().Name() == typ && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main"
}
