package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"grundy/engine/prelude/grundyrt"
)

// hiddenFields: unexported fields of the structs a cell declares. yaegi
// v0.16.1 builds such structs with reflect, which cannot make unexported
// fields settable, so it exports them under the name "X"+name
// (interp/type.go, refType's struct fields); encoding/json and xml then
// wrote {"Xsecret": ...}. Each unexported field gets tags that keep
// encoders away, first in its tag (the first key is the one reflect
// finds); "A, b int" is split so only b is hidden. The engine's printer
// undoes the renaming and these tags (see grundyrt's fieldName). Struct
// types the passes write from the oracle's types (Cell.TypeExpr) get the
// same tags: var ps []struct{ val int }, for ps := []struct{ val int
// }{...}, was another reflect type than the literal's (reflect.Set
// panicked). Blank fields are exported as X_ alike, and reflect.StructOf
// refused a struct with two ("duplicate field X_"): when a struct has
// several, each gets a name of its own (grundyrt.BlankField+n), which
// the printer and reflect's fields give back as _. A blank field's value
// in a literal is the zero value (see blankValues).
var hiddenFields = Pass{
	Name:     "hiddenfields",
	Run:      runHiddenFields,
	Kinds:    []ast.Node{(*ast.StructType)(nil), (*ast.CompositeLit)(nil)},
	Snippets: []string{"json_unexported_fields", "blank_field_values"},
}

func runHiddenFields(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				if n.Fields != nil {
					c.exportedClash(n)
					hideUnexported(n)
				}
			case *ast.CompositeLit:
				c.blankValues(n)
			}
			return true
		})
	}
}

// exportedClash refuses a struct type with an unexported field (or a
// blank one, or an embedded unexported type) and a field named X and its
// name (name and Xname, _ and X_): yaegi v0.16.1 gives the unexported
// one that name, and could not compile the struct ("the interpreter
// cannot compile this").
func (c *Cell) exportedClash(st *ast.StructType) {
	names := map[string]bool{}
	var hidden []*ast.Ident
	for _, f := range st.Fields.List {
		ids := f.Names
		if id := embeddedIdent(f); len(ids) == 0 && id != nil {
			ids = []*ast.Ident{id}
		}
		for _, id := range ids {
			names[id.Name] = true
			if !ast.IsExported(id.Name) {
				hidden = append(hidden, id)
			}
		}
	}
	for _, id := range hidden {
		if names["X"+id.Name] {
			c.Fail(id.Pos(), "a struct field X%s beside %s: the interpreter names the unexported field %s X%s, so the two clash; rename one of them", id.Name, id.Name, id.Name, id.Name)
			return
		}
	}
}

// embeddedIdent is the name of f's type when f is embedded and its type
// is the cell's (pos, *pos, list[T]), or nil.
func embeddedIdent(f *ast.Field) *ast.Ident {
	if len(f.Names) > 0 {
		return nil
	}
	t := f.Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, _ := unindex(t).(*ast.Ident)
	return id
}

// blankValues writes the zero value for a blank field's value in a
// literal without keys (a value that is not a constant is evaluated
// first, in a function literal returning the zero value) (K{1, 5, "x"} with type K struct{ a int; _ int;
// b string }): Go keeps no value in a blank field, yaegi's exported one
// kept the 5, so K{1, 5, "x"} == K{a: 1, b: "x"} was false, the two were
// two map keys, and the printer showed {1 5 x}, silently.
func (c *Cell) blankValues(cl *ast.CompositeLit) {
	st, ok := typeUnder(c.Types.TypeOf(cl)).(*types.Struct)
	if !ok || len(cl.Elts) != st.NumFields() {
		return
	}
	for i, e := range cl.Elts {
		if _, keyed := e.(*ast.KeyValueExpr); keyed {
			return
		}
		tv := c.Types.Types[e]
		if st.Field(i).Name() != "_" {
			continue
		}
		tx, ok := c.TypeExpr(st.Field(i).Type(), e.Pos())
		if !ok {
			continue
		}
		zero := c.zeroOf(st.Field(i).Type(), tx, e.Pos())
		if tv.Value != nil || tv.IsNil() {
			cl.Elts[i] = zero
			continue
		}
		// Evaluated, for what it does: func() T { _ = e; return zero }().
		pos := e.Pos()
		lit := funcLit(pos, e.End(), results(tx), &ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, Tok: token.ASSIGN, TokPos: pos, Rhs: []ast.Expr{e}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{zero}})
		cl.Elts[i] = &ast.CallExpr{Fun: lit, Lparen: e.End(), Rparen: e.End()}
	}
}

func hideUnexported(st *ast.StructType) {
	blanks, blank := 0, 0
	for _, f := range st.Fields.List {
		for _, name := range f.Names {
			if name.Name == "_" {
				blanks++
			}
		}
	}
	var list []*ast.Field
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			if len(st.Fields.List) > 1 {
				markEmbedded(f)
			}
			if id := embeddedIdent(f); id != nil && !ast.IsExported(id.Name) {
				hideEmbedded(f)
			}
			list = append(list, f) // embedded: it promotes its fields
			continue
		}
		for _, name := range f.Names {
			g := &ast.Field{Doc: f.Doc, Names: []*ast.Ident{name}, Type: f.Type, Tag: f.Tag, Comment: f.Comment}
			if len(f.Names) == 1 {
				g = f
			}
			if name.Name == "_" && blanks > 1 {
				// Several blank fields: each its own name.
				blank++
				g.Names = []*ast.Ident{{NamePos: name.NamePos, Name: grundyrt.BlankField + strconv.Itoa(blank)}}
			}
			if !ast.IsExported(g.Names[0].Name) {
				hideField(g) // (a lone blank one too: json wrote "X_")
			}
			list = append(list, g)
		}
	}
	st.Fields.List = list
}

// markEmbedded tags f, an embedded field of a struct with other fields,
// as embedded, for the printer and reflect (see grundyrt.EmbedTag).
func markEmbedded(f *ast.Field) {
	if tag := fieldTag(f); !strings.Contains(tag, grundyrt.EmbedTag) {
		setTag(f, tag+grundyrt.EmbedTag)
	}
}

// hideEmbedded tags f, an embedded field of an unexported type, so that
// reflect's fields give its name back (see grundyrt.UnexportedEmbedTag).
func hideEmbedded(f *ast.Field) {
	if tag := fieldTag(f); !strings.HasPrefix(tag, grundyrt.UnexportedEmbedTag) {
		setTag(f, grundyrt.UnexportedEmbedTag+tag)
	}
}

func hideField(f *ast.Field) {
	if tag := fieldTag(f); !strings.HasPrefix(tag, grundyrt.HiddenTags) {
		setTag(f, grundyrt.HiddenTags+tag)
	}
}

// fieldTag is f's tag, unquoted ("" for none).
func fieldTag(f *ast.Field) string {
	if f.Tag != nil {
		if t, err := strconv.Unquote(f.Tag.Value); err == nil {
			return t
		}
	}
	return ""
}

// setTag gives f the tag.
func setTag(f *ast.Field, tag string) {
	f.Tag = &ast.BasicLit{ValuePos: f.Type.End(), Kind: token.STRING, Value: strconv.Quote(tag)}
}
