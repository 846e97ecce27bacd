package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/prelude/grundyrt"
	"grundy/engine/typecheck"
)

// structNames: the struct types cells declare get their names into their
// reflect types. yaegi v0.16.1 builds them with reflect.StructOf
// (interp/type.go:2058, refType), which makes one type of each structure:
// type Point struct{ X, Y int } and type Vec struct{ X, Y int } were one
// type at run time, so v.(Vec) of a Point succeeded, a Point equalled a
// Vec in an interface, and fmt could not tell which String method a value
// in an interface has. The first field of each (a type with fields)
// gets the tag grundyrt.NameTag:"main.Point" (after the tags
// hiddenFields puts first), which makes the reflect types distinct and
// names them for the printer; conversions between such types ignore tags,
// as Go's do. A type without fields gets one of no size to carry its
// name (grundyrt.EmptyField; the printer and reflect's fields leave it
// out): type Cat struct{} and type Cow struct{} were the one reflect type
// struct {}, so a.(Cow) of a Cat succeeded, any(Cat{}) == any(Cow{}),
// and %T of one in an any said struct {}. A generic type's tag says where its type arguments are
// (main.Pair[0,1], see instanceTemplate): an instance made in a generic
// function and put in an interface was struct { Key string; Val int } to
// %T, where Go says main.Pair[string,int].
var structNames = Pass{
	Name:     "structnames",
	Run:      runStructNames,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil), (*ast.CompositeLit)(nil)},
	Snippets: []string{"struct_types_of_one_structure", "struct_types_without_fields", "generic_struct_unused_param"},
}

func runStructNames(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok {
				c.addParamValues(cl)
				c.addPadValue(cl)
				return true
			}
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Assign.IsValid() {
				return true
			}
			c.writeOutStruct(ts)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			if ts.TypeParams != nil {
				markParams(ts, st)
			}
			if len(st.Fields.List) == 0 {
				markEmpty(st, "main."+ts.Name.Name)
				return true
			}
			if ts.TypeParams == nil {
				c.padSoleEmbedded(st, c.Types.TypeOf(ts.Type))
			}

			if ts.TypeParams != nil {
				if name := instanceTemplate(ts, st); name != "" {
					nameField(st, name)
				}
				return true
			}
			nameField(st, "main."+ts.Name.Name)
			return true
		})
	}
}

// writeOutStruct writes out the struct type a type declared on another
// struct type has (type Pos Point, type IntPair Pair[int, int]), and the
// array, slice, map, channel or pointer type of one declared on another
// such type (type Batch Recs), for it
// to carry its own name: declared as it is, it had the other's, tag and
// all, so that yaegi made the two one reflect type (a *Pos in an any
// asserted to *Point, %T of it said main.Point), silently.
func (c *Cell) writeOutStruct(ts *ast.TypeSpec) {
	if ts.TypeParams != nil {
		return
	}
	if _, ok := ts.Type.(*ast.StructType); ok {
		return
	}
	t := c.Types.TypeOf(ts.Type)
	if t == nil || !typecheck.IsCellType(t) {
		return // (a library's struct, time.Time, may have fields of its package's own)
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Slice, *types.Map, *types.Chan, *types.Pointer:
		// type Batch Recs with type Recs []Rec (or a channel or pointer
		// type, type JobQ Queue): yaegi v0.16.1 took Recs
		// for Batch's element (Batch{{1}, {2}}: "cannot convert untyped
		// int to main.Rec"; indexing through a pointer, ranging, a map
		// literal failed to compile). Batch's underlying type is []Rec
		// either way, and it has none of Recs' methods.
		if x, ok := c.TypeExpr(t.Underlying(), ts.Type.Pos()); ok {
			ts.Type = x
		}
		return
	}
	u, ok := t.Underlying().(*types.Struct)
	if !ok || u.NumFields() == 0 {
		return
	}
	x, ok := c.TypeExpr(u, ts.Type.Pos())
	st, isStruct := x.(*ast.StructType)
	if !ok || !isStruct {
		return
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeArgs().Len() > 0 {
		// An instance's fields from markParams too (type IntE E[int]).
		for _, i := range missingParams(n.Origin()) {
			elem, ok := c.TypeExpr(n.TypeArgs().At(i), ts.Type.Pos())
			if !ok {
				return
			}
			st.Fields.List = append(st.Fields.List, paramField(n.Origin().TypeParams().At(i).Obj().Name(), elem, st.Fields.Closing))
		}
	}
	ts.Type = st
}

// instanceTemplate is the name a generic struct type's instances carry:
// main.Pair[0,1] for type Pair[K, V any] struct{ Key K; Val V }, each type
// argument written as where the runtime finds a value of its type (see
// grundyrt.InstanceName): a field's index, then e for the element of a
// pointer, slice, array, channel or map and k for a map's key ([]T: 0e).
// "" when a type parameter is in no field's type so written.
func instanceTemplate(ts *ast.TypeSpec, st *ast.StructType) string {
	var args []string
	for _, f := range ts.TypeParams.List {
		for _, p := range f.Names {
			i, at := 0, ""
			for _, fl := range st.Fields.List {
				for range max(1, len(fl.Names)) {
					if path, ok := paramPath(fl.Type, p.Name); ok && at == "" {
						at = strconv.Itoa(i) + path
					}
					i++
				}
			}
			if at == "" {
				return ""
			}
			args = append(args, at)
		}
	}
	return "main." + ts.Name.Name + "[" + strings.Join(args, ",") + "]"
}

// paramPath is where in a value of type t a value of the type parameter
// name is (see instanceTemplate).
func paramPath(t ast.Expr, name string) (string, bool) {
	switch t := t.(type) {
	case *ast.Ident:
		return "", t.Name == name
	case *ast.ParenExpr:
		return paramPath(t.X, name)
	case *ast.StarExpr:
		p, ok := paramPath(t.X, name)
		return "e" + p, ok
	case *ast.ArrayType:
		p, ok := paramPath(t.Elt, name)
		return "e" + p, ok
	case *ast.ChanType:
		p, ok := paramPath(t.Value, name)
		return "e" + p, ok
	case *ast.MapType:
		if p, ok := paramPath(t.Key, name); ok {
			return "k" + p, true
		}
		p, ok := paramPath(t.Value, name)
		return "e" + p, ok
	}
	return "", false
}

// typeInstanceTemplate is instanceTemplate of the generic struct type
// whose instance t is, from the oracle's types ("" if t is none).
func typeInstanceTemplate(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 {
		return ""
	}
	o := n.Origin()
	st, ok := o.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	var args []string
	missing := missingParams(o)
	for i := range o.TypeParams().Len() {
		tp := o.TypeParams().At(i)
		at := ""
		for f := range st.NumFields() {
			if path, ok := typeParamPath(st.Field(f).Type(), tp); ok {
				at = strconv.Itoa(f) + path
				break
			}
		}
		if k := slices.Index(missing, i); k >= 0 {
			at = strconv.Itoa(st.NumFields()+k) + "ee" // (markParams's field)
		}
		if at == "" {
			return ""
		}
		args = append(args, at)
	}
	return "main." + o.Obj().Name() + "[" + strings.Join(args, ",") + "]"
}

// missingParams are the indexes of the type parameters of o, a generic
// struct type, that no field's type mentions other than in an interface
// type (whose reflect type is one for all: yaegi's valueInterface):
// markParams gives each a field.
func missingParams(o *types.Named) []int {
	st, ok := o.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []int
	for i := range o.TypeParams().Len() {
		tp := o.TypeParams().At(i)
		found := false
		for f := range st.NumFields() {
			found = found || mentionsParam(st.Field(f).Type(), tp)
		}
		if !found {
			out = append(out, i)
		}
	}
	return out
}

// mentionsParam reports whether t mentions tp other than in an interface
// type, as markParams reads a field's type expression.
func mentionsParam(t types.Type, tp *types.TypeParam) bool {
	parts := typeParts(t)
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return t == tp
	case *types.Signature:
		for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tu.Len() {
				parts = append(parts, tu.At(i).Type())
			}
		}
	}
	return slices.ContainsFunc(parts, func(p types.Type) bool { return mentionsParam(p, tp) })
}

// soleEmbeddedMethods reports whether t is a struct type whose one field
// embeds a library type with methods (see grundyrt.EmbedPad).
func (c *Cell) soleEmbeddedMethods(t types.Type) bool {
	if t == nil {
		return false
	}
	st, ok := typeUnder(t).(*types.Struct)
	if !ok || st.NumFields() != 1 || !st.Field(0).Embedded() {
		return false
	}
	ft := st.Field(0).Type()
	base := ft
	if p, ok := types.Unalias(ft).(*types.Pointer); ok {
		base = p.Elem()
	}
	return !types.IsInterface(ft) && !typecheck.IsCellType(base) && types.NewMethodSet(ft).Len() > 0
}

// padSoleEmbedded gives st, the struct type of t, a type the cells
// declare, the field grundyrt.EmbedPad when its one field embeds a
// library type with methods. (Not an unnamed struct type's: its methods
// are reflect's alone, struct{ sort.IntSlice }{xs} as a sort.Interface;
// a named type's are the engine's, embedMethods'.)
func (c *Cell) padSoleEmbedded(st *ast.StructType, t types.Type) {
	if !c.soleEmbeddedMethods(t) {
		return
	}
	st.Fields.List = append(st.Fields.List, hiddenEmptyField(grundyrt.EmbedPad, st.Fields.Closing))
}

// addPadValue ends cl, a positional literal of a struct type with
// grundyrt.EmbedPad, with the pad's value.
func (c *Cell) addPadValue(cl *ast.CompositeLit) {
	t := c.Types.TypeOf(cl)
	if n, ok := types.Unalias(t).(*types.Named); !ok || n.TypeArgs().Len() > 0 || n.TypeParams().Len() > 0 || !typecheck.IsCellType(n) {
		return
	}
	if len(cl.Elts) != 1 || !c.soleEmbeddedMethods(t) {
		return
	}
	if _, keyed := cl.Elts[0].(*ast.KeyValueExpr); keyed {
		return
	}
	pos := cl.Rbrace
	cl.Elts = append(cl.Elts, &ast.CompositeLit{Type: rtSelector(prelude.RTEmpty, pos), Lbrace: pos, Rbrace: pos})
}

// addParamValues ends cl, a positional literal of an instance of a
// generic struct type with fields from markParams, with their values
// ([0]*int{} for E[int]).
func (c *Cell) addParamValues(cl *ast.CompositeLit) {
	n, ok := types.Unalias(c.Types.TypeOf(cl)).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || !typecheck.IsCellType(n) || len(cl.Elts) == 0 {
		return
	}
	st, ok := n.Underlying().(*types.Struct)
	missing := missingParams(n.Origin())
	if _, keyed := cl.Elts[0].(*ast.KeyValueExpr); !ok || keyed || len(missing) == 0 || len(cl.Elts) != st.NumFields() {
		return
	}
	var more []ast.Expr
	for _, i := range missing {
		x, ok := c.TypeExpr(types.NewArray(types.NewPointer(n.TypeArgs().At(i)), 0), cl.Rbrace)
		if !ok {
			return
		}
		more = append(more, &ast.CompositeLit{Type: x, Lbrace: cl.Rbrace, Rbrace: cl.Rbrace})
	}
	cl.Elts = append(cl.Elts, more...)
}

// typeParamPath is paramPath over the oracle's types.
func typeParamPath(t types.Type, tp *types.TypeParam) (string, bool) {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return "", t == tp
	case *types.Map:
		if p, ok := typeParamPath(t.Key(), tp); ok {
			return "k" + p, true
		}
		p, ok := typeParamPath(t.Elem(), tp)
		return "e" + p, ok
	case interface{ Elem() types.Type }: // pointer, slice, array, channel
		p, ok := typeParamPath(t.Elem(), tp)
		return "e" + p, ok
	}
	return "", false
}

// markEmpty gives st, a struct type without fields, a field of no size
// (grundyrt.EmptyField) that carries the type's name, hidden as
// hiddenFields hides unexported fields, which the printer and reflect's
// fields leave out.
func markEmpty(st *ast.StructType, name string) {
	st.Fields.List = []*ast.Field{hiddenEmptyField(grundyrt.EmptyField, st.Fields.Opening)}
	nameField(st, name)
}

// hiddenEmptyField is a field name of no size (grundyrt.Empty), hidden
// as hiddenFields hides unexported fields.
func hiddenEmptyField(name string, pos token.Pos) *ast.Field {
	f := &ast.Field{Names: []*ast.Ident{{NamePos: pos, Name: name}}, Type: rtSelector(prelude.RTEmpty, pos)}
	hideField(f)
	return f
}

// nameField puts the type's name in the tag of st's first field (split
// from the fields declared with it, which keep theirs).
func nameField(st *ast.StructType, name string) {
	f := st.Fields.List[0]
	if len(f.Names) > 1 {
		rest := &ast.Field{Names: f.Names[1:], Type: f.Type, Tag: f.Tag, Comment: f.Comment}
		f = &ast.Field{Doc: f.Doc, Names: f.Names[:1], Type: f.Type, Tag: f.Tag}
		st.Fields.List = append([]*ast.Field{f, rest}, st.Fields.List[1:]...)
	}
	tag := fieldTag(f)
	mine := grundyrt.NameTag + ":" + strconv.Quote(name) + " "
	if strings.Contains(tag, mine) {
		return
	}
	if rest, hidden := strings.CutPrefix(tag, grundyrt.HiddenTags); hidden {
		tag = grundyrt.HiddenTags + mine + rest
	} else {
		tag = mine + tag
	}
	setTag(f, tag)
}

// markParams gives st, a generic struct type's, a field of no size for
// each type parameter that no field's type has where instanceTemplate
// finds it (type E[T any] struct{ Op string }, an error generic in what it
// failed on): yaegi v0.16.1 builds an instance's reflect type from its
// fields, so E[int] and E[string] were one type, and an E[int] in an
// interface asserted to E[string], errors.As took one for the other, a
// type switch took the wrong case and %T said struct { Op string },
// silently. The field (grundyrt.ParamField+T, of type [0]*T, after the
// others) tells the instances apart and says where T is; the printer and
// reflect's fields leave it out, and a positional literal gets its value
// (addParamValues).
func markParams(ts *ast.TypeSpec, st *ast.StructType) {
	for _, f := range ts.TypeParams.List {
		for _, p := range f.Names {
			found := false
			for _, fl := range st.Fields.List {
				ast.Inspect(fl.Type, func(n ast.Node) bool {
					id, ok := n.(*ast.Ident)
					found = found || ok && id.Name == p.Name
					_, iface := n.(*ast.InterfaceType)
					return !found && !iface
				})
			}
			if found {
				continue
			}
			st.Fields.List = append(st.Fields.List, paramField(p.Name, ident(p.Name, st.Fields.Closing), st.Fields.Closing))
		}
	}
}

// paramField is markParams's field for the type parameter name, bound to
// elem: _grundyParamT [0]*elem, hidden.
func paramField(name string, elem ast.Expr, pos token.Pos) *ast.Field {
	f := &ast.Field{Names: []*ast.Ident{{NamePos: pos, Name: grundyrt.ParamField + name}},
		Type: &ast.ArrayType{Lbrack: pos, Len: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"},
			Elt: &ast.StarExpr{Star: pos, X: elem}}}
	hideField(f)
	return f
}
