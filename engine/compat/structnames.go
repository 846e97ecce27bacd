package compat

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"grundy/engine/prelude/grundyrt"
)

// structNames: the struct types cells declare get their names into their
// reflect types. yaegi v0.16.1 builds them with reflect.StructOf
// (interp/type.go:2058, refType), which makes one type of each structure:
// type Point struct{ X, Y int } and type Vec struct{ X, Y int } were one
// type at run time, so v.(Vec) of a Point succeeded, a Point equalled a
// Vec in an interface, and fmt could not tell which String method a value
// in an interface has. The first field of each (a non-generic type with
// fields) gets the tag grundyrt.NameTag:"main.Point" (after the tags
// hiddenFields puts first), which makes the reflect types distinct and
// names them for the printer; conversions between such types ignore tags,
// as Go's do.
var structNames = Pass{
	Name:     "structnames",
	Run:      runStructNames,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"struct_types_of_one_structure"},
}

func runStructNames(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.TypeParams != nil || ts.Assign.IsValid() {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || st.Fields == nil || len(st.Fields.List) == 0 {
				return true
			}
			nameField(st, "main."+ts.Name.Name)
			return true
		})
	}
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
