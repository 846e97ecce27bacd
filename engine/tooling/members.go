package tooling

import (
	"go/ast"
	"go/token"
	"go/types"
	"grundy/engine/prelude"
	"strings"

	"grundy/engine/typecheck"
)

// memberCandidates lists what may follow the operand code[start:end] and
// a dot, as the type oracle types the operand where it stands: a
// package's exported names, or the fields and methods of a value's type
// that Go lets the code reach (pointer methods only on an addressable
// operand), promoted ones included; for a type, its method expressions.
func memberCandidates(sc Session, code string, start, end int) []candidate {
	d, e := draftOperand(sc, code, start, end)
	if e == nil {
		return nil
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if pn, ok := d.info.ObjectOf(id).(*types.PkgName); ok {
			return packageMembers(pn.Imported())
		}
	}
	tv, ok := d.info.Types[e]
	if !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		return nil
	}
	if tv.IsType() {
		return methodExprs(tv.Type)
	}
	if !tv.IsValue() {
		return nil
	}
	return valueMembers(d.info, tv.Type, tv.Addressable())
}

// draftOperand is the expression code[start:end] in the draft of the
// cell cut there, as the oracle types it; e is nil when no draft parses.
func draftOperand(sc Session, code string, start, end int) (d *draft, e ast.Expr) {
	d, at := newDraft(sc, cutTexts(code, start, code[start:end]))
	if d == nil {
		return nil, nil
	}
	return d, d.exprAt(at, at+end-start)
}

// fieldCandidates lists the fields a composite literal of the type
// spelled at code[start:end] can name as keys: none when it is not a
// struct type (a block's opening brace, a slice literal).
func fieldCandidates(sc Session, code string, start, end int) []candidate {
	d, e := draftOperand(sc, code, start, end)
	if e == nil {
		return nil
	}
	tv, ok := d.info.Types[e]
	if !ok || !tv.IsType() {
		return nil
	}
	st, ok := tv.Type.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []candidate
	for f := range st.Fields() {
		if f.Exported() || f.Pkg() == d.info.Pkg || f.Pkg().Path() == "main" {
			out = append(out, candidate{f.Name(), "property", typeString(f.Type())})
		}
	}
	return out
}

// packageMembers lists a package's exported names, each with its
// documented signature where the docs have one.
func packageMembers(p *types.Package) []candidate {
	var out []candidate
	for _, name := range p.Scope().Names() {
		obj := p.Scope().Lookup(name)
		if !obj.Exported() {
			continue
		}
		c := objectCandidate(obj)
		if d, ok := libDocs[p.Path()+"."+name]; ok {
			c.signature = d.Sig
		}
		out = append(out, c)
	}
	return out
}

// valueMembers lists the fields and methods x.name reaches for x of type
// t (addressable: a variable, an element of a slice), as go/types looks
// them up: what is ambiguous or unexported in another package is left out.
func valueMembers(info *typecheck.Info, t types.Type, addressable bool) []candidate {
	var out []candidate
	for _, name := range memberNames(t) {
		obj, _, _ := types.LookupFieldOrMethod(t, addressable, info.Pkg, name)
		switch obj := obj.(type) {
		case *types.Var:
			out = append(out, candidate{name, "property", typeString(obj.Type())})
		case *types.Func:
			out = append(out, candidate{name, "function", typeString(obj.Type())})
		}
	}
	// Methods the cell declares on an earlier cell's type.
	if named := namedOf(t); named != nil {
		_, isPtr := t.Underlying().(*types.Pointer)
		for _, m := range info.DraftMethods(named) {
			_, ptrRecv := m.Type().(*types.Signature).Recv().Type().(*types.Pointer)
			if !ptrRecv || isPtr || addressable {
				out = append(out, candidate{m.Name(), "function", typeString(m.Type())})
			}
		}
	}
	return out
}

// memberNames lists every field and method name t may have, through
// pointers, embedded fields and a type parameter's constraint; which of
// them x.name reaches is for LookupFieldOrMethod to say.
func memberNames(t types.Type) []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	visited := map[types.Type]bool{}
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if visited[t] || depth > 8 {
			return
		}
		visited[t] = true
		for _, mt := range []types.Type{t, types.NewPointer(t)} {
			if _, isIface := t.Underlying().(*types.Interface); isIface && mt != t {
				continue
			}
			if _, isParam := t.(*types.TypeParam); isParam {
				mt = t.Underlying() // the constraint's methods
			}
			ms := types.NewMethodSet(mt)
			for i := range ms.Len() {
				add(ms.At(i).Obj().Name())
			}
		}
		if st, ok := t.Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				f := st.Field(i)
				add(f.Name())
				if f.Embedded() {
					walk(f.Type(), depth+1)
				}
			}
		}
	}
	walk(t, 0)
	return out
}

// methodExprs lists the methods of a type, for T.M.
func methodExprs(t types.Type) []candidate {
	ms := types.NewMethodSet(t)
	out := make([]candidate, 0, ms.Len())
	for i := range ms.Len() {
		m := ms.At(i).Obj()
		out = append(out, candidate{m.Name(), "function", typeString(m.Type())})
	}
	return out
}

// scopeCandidates lists every name usable where the word at start is
// being typed: what the oracle has in scope there (the enclosing
// functions' parameters and locals, the cell's declarations), the
// session's names and packages, Go's keywords and predeclared names.
func scopeCandidates(sc Session, code string, start int) []candidate {
	var out []candidate
	if d, at := newDraft(sc, cutTexts(code, start, "_")); d != nil {
		if id, ok := d.exprAt(at, at+1).(*ast.Ident); ok {
			out = scopeNames(d, id.Pos(), d.scopeAt(at))
		}
		for name, path := range d.imports {
			out = append(out, candidate{name, "module", path})
		}
	}
	tc := sc.Types()
	if tc == nil {
		return out
	}
	for _, name := range tc.Names() {
		if strings.HasPrefix(name, prelude.Temp) {
			continue // the engine's own (hidden composite types)
		}
		out = append(out, objectCandidate(tc.Lookup(name)))
	}
	for name, path := range tc.Packages() {
		out = append(out, candidate{name, "module", path})
	}
	for _, k := range goKeywords {
		out = append(out, candidate{k, "keyword", ""})
	}
	for name, kind := range goBuiltins {
		out = append(out, candidate{name, kind, ""})
	}
	return out
}

// scopeNames lists the names of s and its enclosing scopes, short of
// Go's universe, that are in scope at pos.
func scopeNames(d *draft, pos token.Pos, s *types.Scope) []candidate {
	var out []candidate
	for ; s != nil && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			obj := s.Lookup(name)
			if _, found := s.LookupParent(name, pos); found != obj && s != d.info.Pkg.Scope() {
				continue // declared further on
			}
			out = append(out, objectCandidate(obj))
		}
	}
	return out
}

// objectCandidate is obj as a completion, with the kind Jupyter shows.
func objectCandidate(obj types.Object) candidate {
	switch obj := obj.(type) {
	case *types.Func:
		return candidate{obj.Name(), "function", typeString(obj.Type())}
	case *types.TypeName:
		return candidate{obj.Name(), "class", ""}
	case *types.PkgName:
		return candidate{obj.Name(), "module", obj.Imported().Path()}
	case *types.Builtin:
		return candidate{obj.Name(), "function", ""}
	case nil:
		return candidate{}
	}
	return candidate{obj.Name(), "instance", strings.TrimPrefix(typeString(obj.Type()), "untyped ")}
}
