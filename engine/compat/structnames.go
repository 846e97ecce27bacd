package compat

import (
	"go/ast"
	"go/token"
	"go/types"
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
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"struct_types_of_one_structure", "struct_types_without_fields"},
}

func runStructNames(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Assign.IsValid() {
				return true
			}
			c.writeOutStruct(ts)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			if len(st.Fields.List) == 0 {
				if ts.TypeParams == nil {
					markEmpty(st, "main."+ts.Name.Name)
				}
				return true
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
// struct type has (type Pos Point, type IntPair Pair[int, int]), for it
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
	u, ok := t.Underlying().(*types.Struct)
	if !ok || u.NumFields() == 0 {
		return
	}
	if x, ok := c.TypeExpr(u, ts.Type.Pos()); ok {
		if st, ok := x.(*ast.StructType); ok {
			ts.Type = st
		}
	}
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
	for i := range o.TypeParams().Len() {
		tp := o.TypeParams().At(i)
		at := ""
		for f := range st.NumFields() {
			if path, ok := typeParamPath(st.Field(f).Type(), tp); ok {
				at = strconv.Itoa(f) + path
				break
			}
		}
		if at == "" {
			return ""
		}
		args = append(args, at)
	}
	return "main." + o.Obj().Name() + "[" + strings.Join(args, ",") + "]"
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
	pos := st.Fields.Opening
	f := &ast.Field{Names: []*ast.Ident{{NamePos: pos, Name: grundyrt.EmptyField}},
		Type: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTEmpty, pos)}}
	hideField(f)
	st.Fields.List = []*ast.Field{f}
	nameField(st, name)
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
	tag := ""
	if f.Tag != nil {
		if t, err := strconv.Unquote(f.Tag.Value); err == nil {
			tag = t
		}
	}
	mine := grundyrt.NameTag + ":" + strconv.Quote(name) + " "
	if strings.Contains(tag, mine) {
		return
	}
	if rest, hidden := strings.CutPrefix(tag, grundyrt.HiddenTags); hidden {
		tag = grundyrt.HiddenTags + mine + rest
	} else {
		tag = mine + tag
	}
	f.Tag = &ast.BasicLit{ValuePos: f.Type.End(), Kind: token.STRING, Value: strconv.Quote(tag)}
}
