package tooling

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"grundy/engine/display"
	"grundy/engine/prelude"
	"grundy/stdlib/human"
)

// inspect answers inspect_request (Shift-Tab in Jupyter): what the name at
// the cursor is. A library symbol shows its declaration and doc comment; a
// variable its type and current value. With the cursor inside a call's
// parentheses (or its string arguments) it describes the called function,
// which is what a user pausing there wants to know.
func inspect(sc Session, code string, cursor, detail int) (display.Bundle, bool) {
	at := byteOffset(code, cursor)
	target := inspectTarget(code, at)
	if target == "" {
		return nil, false
	}
	in := &inspector{sc: sc, local: scanCell(code, -1, -1), code: code, at: at, detail: detail}
	d, ok := in.describe(target)
	if !ok {
		return nil, false
	}
	return d.bundle(), true
}

// inspectTarget returns the expression to describe: the identifier (with
// its selector chain) touching the cursor, or else the function whose call
// parentheses enclose the cursor.
func inspectTarget(code string, at int) string {
	if inComment(code[:at]) {
		return ""
	}
	if !insideCommentOrString(code[:at]) {
		start, end := wordAround(code, at)
		if start < end && !strings.ContainsRune("0123456789", rune(code[start])) {
			word := code[start:end]
			if dot := selectorDot(code, start); dot >= 0 {
				if recv := receiverExpr(code, dot); recv != "" {
					return recv + "." + word
				}
				return ""
			}
			return word
		}
		if start == end && at > 0 && code[at-1] == '.' {
			return receiverExpr(code, at-1) // "games." describes games
		}
	}
	// The innermost call still open at the cursor.
	var open []int
	for _, t := range tokenize(code[:at]) {
		switch t.tok {
		case token.LPAREN:
			open = append(open, t.off)
		case token.RPAREN:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		if callee := receiverExpr(code, open[i]); callee != "" {
			return callee
		}
	}
	return ""
}

// inComment reports whether the end of before lies in a comment.
func inComment(before string) bool {
	toks := tokenizeComments(before)
	if len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	if last.tok != token.COMMENT {
		return false
	}
	if strings.HasPrefix(last.lit, "/*") {
		return !strings.HasSuffix(last.lit, "*/") || len(last.lit) < 4
	}
	return last.end >= len(before)
}

// description is what inspect found, before rendering.
type description struct {
	sig    string // Go source: a declaration or "var x T"
	value  string // the current value, for variables
	doc    string // a doc comment's text
	extras []description
}

func (d description) bundle() display.Bundle {
	var plain, md strings.Builder
	d.render(&plain, &md)
	return display.Bundle{
		"text/plain":    strings.TrimRight(plain.String(), "\n") + "\n",
		"text/markdown": strings.TrimRight(md.String(), "\n") + "\n",
	}
}

func (d description) render(plain, md *strings.Builder) {
	if d.sig != "" {
		plain.WriteString(d.sig + "\n")
		md.WriteString("```go\n" + d.sig + "\n```\n")
	}
	if d.value != "" {
		plain.WriteString("value: " + d.value + "\n")
		md.WriteString("\nvalue:\n```\n" + d.value + "\n```\n")
	}
	if d.doc != "" {
		plain.WriteString("\n" + d.doc)
		md.WriteString("\n" + docMarkdown(d.doc))
	}
	for _, x := range d.extras {
		plain.WriteString("\n")
		md.WriteString("\n")
		x.render(plain, md)
	}
}

// docMarkdown renders a doc comment. Links into Go's standard library go to
// pkg.go.dev; links to the library or within a package stay plain text, as
// there is no page to point at.
func docMarkdown(doc string) string {
	p := comment.Parser{LookupSym: func(recv, name string) bool { return true }}
	pr := comment.Printer{DocLinkURL: func(l *comment.DocLink) string {
		if l.ImportPath == "" || strings.HasPrefix(l.ImportPath, "grundy/") {
			return ""
		}
		return "https://pkg.go.dev" + l.DefaultURL("")
	}}
	return string(pr.Markdown(p.Parse(doc)))
}

type inspector struct {
	sc     Session
	local  cellScope
	code   string
	at     int
	detail int
}

func (in *inspector) describe(target string) (description, bool) {
	e, err := parser.ParseExpr(target)
	if err != nil {
		return description{}, false
	}
	switch e := e.(type) {
	case *ast.Ident:
		return in.ident(e.Name)
	case *ast.SelectorExpr:
		return in.selector(e, target)
	}
	return description{}, false
}

func (in *inspector) ident(name string) (description, bool) {
	// A declaration in this cell before the cursor is what the name will
	// mean once the cell runs; the session's value is the old one.
	if d, ok := in.local.lookup(name, in.at); ok {
		if desc, ok := in.localDecl(d); ok {
			return desc, true
		}
	}
	if v, ok := in.sc.ValueOf(name); ok && v.IsValid() {
		d := description{sig: "var " + name + " " + in.typeName(v.Type()), value: in.formatValue(v)}
		if td, ok := typeDoc(v.Type()); ok {
			d.extras = append(d.extras, in.withMethods(td, v.Type()))
		}
		d.extras = append(d.extras, in.cellMethodList(v.Type())...)
		return d, true
	}
	for _, g := range in.sc.Globals() {
		if g.Name != name {
			continue
		}
		switch g.Kind {
		case "func":
			return description{sig: "func " + name + strings.TrimPrefix(g.Type, "func")}, true
		case "type":
			if g.Type != "" {
				return description{sig: "type " + name + " " + g.Type}, true
			}
			if t, ok := in.sc.TypeOf(name); ok && t != nil {
				return description{sig: "type " + name + " " + t.String()}, true
			}
			return description{sig: "type " + name}, true
		default:
			if t, ok := in.sc.TypeOf(name); ok && t != nil {
				return description{sig: g.Kind + " " + name + " " + t.String()}, true
			}
			return description{sig: strings.TrimSpace(g.Kind + " " + name + " " + g.Type)}, true
		}
	}
	if p, ok := in.sc.Packages()[name]; ok {
		if d, ok := lookupDoc(p.Path, p.Path); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
		return description{sig: "package " + name + ` // import "` + p.Path + `"`}, true
	}
	if _, ok := goBuiltins[name]; ok {
		if d, ok := stdlibDoc("builtin", "builtin."+name); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
		return description{sig: name + " (predeclared)"}, true
	}
	return description{}, false
}

// localDecl describes a name declared in the cell being edited.
func (in *inspector) localDecl(d cellDecl) (description, bool) {
	switch d.kind {
	case "function":
		if sig, doc := funcDeclAt(in.code, d.off); sig != "" {
			return description{sig: sig, doc: doc}, true
		}
	case "instance":
		ty := &typer{sc: in.sc, local: in.local, pkgs: in.sc.Packages(), before: in.at}
		if t, isType := ty.ident(d.name); t != nil && !isType {
			desc := description{sig: "var " + d.name + " " + in.typeName(t)}
			if td, ok := typeDoc(t); ok {
				desc.extras = append(desc.extras, in.withMethods(td, t))
			}
			desc.extras = append(desc.extras, in.cellMethodList(t)...)
			return desc, true
		}
	case "module":
		if d.src != "" {
			if e, ok := lookupDoc(d.src, d.src); ok {
				return description{sig: e.Sig, doc: in.trimDoc(e.Doc)}, true
			}
		}
	}
	return description{}, false
}

func (in *inspector) selector(e *ast.SelectorExpr, target string) (description, bool) {
	name := e.Sel.Name
	// pkg.Name
	if id, ok := e.X.(*ast.Ident); ok {
		if d, ok := in.local.lookup(id.Name, in.at); ok && d.kind == "module" && d.src != "" {
			// Imported by this cell, perhaps not run yet.
			if syms, found := importedSymbols(d.src); found {
				return in.pkgMember(PackageSymbols{Path: d.src, Symbols: syms}, id.Name, name)
			}
		}
		if p, ok := in.sc.Packages()[id.Name]; ok && !in.local.shadows(id.Name) && !globalShadows(in.sc, id.Name) {
			return in.pkgMember(p, id.Name, name)
		} else if !ok && !in.local.shadows(id.Name) && !globalShadows(in.sc, id.Name) {
			// A standard package the cell will import when it runs.
			if path := prelude.StandardPackage(id.Name); path != "" {
				if syms, found := importedSymbols(path); found {
					return in.pkgMember(PackageSymbols{Path: path, Symbols: syms}, id.Name, name)
				}
			}
		}
	}
	// pkg.Type.Method, a method expression
	if x, ok := e.X.(*ast.SelectorExpr); ok {
		if id, ok := x.X.(*ast.Ident); ok && !in.local.shadows(id.Name) {
			if p, ok := in.sc.Packages()[id.Name]; ok {
				if kind, _ := classifySymbol(p.Symbols[x.Sel.Name]); kind == "type" {
					if d, ok := lookupDoc(p.Path, p.Path+"."+x.Sel.Name+"."+name); ok {
						return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
					}
				}
			}
		}
	}
	// value.Member
	xt := inferType(in.sc, types.ExprString(e.X), in.local, in.at)
	if xt == nil {
		return description{}, false
	}
	named := xt
	if named.Kind() == reflect.Pointer {
		named = named.Elem()
	}
	if named.PkgPath() != "" && named.Name() != "" {
		if d, ok := lookupDoc(named.PkgPath(), named.PkgPath()+"."+named.Name()+"."+name); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
	}
	mt := memberType(xt, name)
	if mt == nil {
		for _, m := range cellMethods(in.sc, in.local, xt) {
			if m.name == name {
				return description{sig: "func (" + in.typeName(xt) + ") " + name + strings.TrimPrefix(m.signature, "func")}, true
			}
		}
		return description{}, false
	}
	var d description
	if isMethod(xt, name) {
		d.sig = "func (" + xt.String() + ") " + name + strings.TrimPrefix(mt.String(), "func")
	} else {
		d.sig = "field " + name + " " + in.typeName(mt) + " // in " + in.typeName(named)
		if chain := selectorChain(e); chain != "" {
			if v, ok := in.sc.ValueOf(chain); ok && v.IsValid() {
				d.value = in.formatValue(v)
			}
		}
		if td, ok := typeDoc(mt); ok {
			d.extras = append(d.extras, in.withMethods(td, mt))
		}
	}
	return d, true
}

func isMethod(t reflect.Type, name string) bool {
	if _, ok := t.MethodByName(name); ok {
		return true
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		_, ok := reflect.PointerTo(t).MethodByName(name)
		return ok
	}
	return false
}

func (in *inspector) pkgMember(p PackageSymbols, pkgName, name string) (description, bool) {
	v, known := p.Symbols[name]
	kind, typ := classifySymbol(v)
	if d, ok := lookupDoc(p.Path, p.Path+"."+name); ok {
		desc := description{sig: d.Sig, doc: in.trimDoc(d.Doc)}
		if kind == "var" {
			desc.value = in.formatValue(v.Elem())
		}
		if d.Kind == "type" && typ != nil {
			desc = in.withMethods(desc, typ)
		}
		return desc, true
	}
	if !known {
		return description{}, false
	}
	switch kind {
	case "func":
		return description{sig: "func " + pkgName + "." + name + strings.TrimPrefix(typ.String(), "func")}, true
	case "type":
		return description{sig: "type " + pkgName + "." + name + " " + typ.Kind().String()}, true
	case "var":
		return description{sig: "var " + pkgName + "." + name + " " + typ.String(), value: in.formatValue(v.Elem())}, true
	}
	return description{sig: "const " + pkgName + "." + name, value: in.formatValue(v)}, true
}

// withMethods adds the one-line signatures of a documented type's methods.
func (in *inspector) withMethods(d description, t reflect.Type) description {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() == "" || t.Name() == "" {
		return d
	}
	prefix := t.PkgPath() + "." + t.Name() + "."
	var sigs []string
	for k, e := range libDocs {
		if strings.HasPrefix(k, prefix) && e.Kind == "method" {
			sigs = append(sigs, e.Sig)
		}
	}
	if len(sigs) == 0 {
		return d
	}
	sort.Strings(sigs)
	d.extras = append(d.extras, description{sig: strings.Join(sigs, "\n")})
	return d
}

// typeDoc is the documentation of t's named type (through one pointer).
func typeDoc(t reflect.Type) (description, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() == "" || t.Name() == "" {
		return description{}, false
	}
	d, ok := lookupDoc(t.PkgPath(), t.PkgPath()+"."+t.Name())
	if !ok {
		return description{}, false
	}
	return description{sig: d.Sig, doc: d.Doc}, true
}

// lookupDoc finds key in the library's generated docs, then in the
// standard library's source.
func lookupDoc(importPath, key string) (docEntry, bool) {
	if d, ok := libDocs[key]; ok {
		return d, true
	}
	if strings.HasPrefix(importPath, "grundy/") || strings.Contains(strings.SplitN(importPath, "/", 2)[0], ".") {
		return docEntry{}, false // ours (not generated yet) or a third-party module
	}
	return stdlibDoc(importPath, key)
}

// trimDoc keeps a short doc to its first paragraph at detail level 0.
func (in *inspector) trimDoc(doc string) string {
	if in.detail > 0 {
		return doc
	}
	if i := strings.Index(doc, "\n\n"); i >= 0 && len(doc) > 1500 {
		return doc[:i+1] + "...\n"
	}
	return doc
}

// formatValue prints v as %v does, bounded, and survives a String method
// that panics.
func (in *inspector) formatValue(v reflect.Value) (s string) {
	limit := 2000
	if in.detail > 0 {
		limit = 50000
	}
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("(printing the value panicked: %v)", r)
		}
	}()
	if !v.IsValid() {
		return "<nil>"
	}
	if v.CanInterface() {
		s = fmt.Sprintf("%v", v.Interface())
	} else {
		s = v.String()
	}
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		s = string(r[:limit]) + fmt.Sprintf("... (%s; Shift-Tab again for more)", human.Quantity(len(r)-limit, "more character"))
	}
	return s
}

// typeName writes t as a cell's author would: a cell-declared type by its
// name (yaegi's reflect types have none), its fields unmangled.
func (in *inspector) typeName(t reflect.Type) string {
	if names := cellTypeNames(in.sc, in.local, t); len(names) == 1 {
		if t.Kind() == reflect.Pointer {
			return "*" + names[0]
		}
		return names[0]
	}
	return prettyType(t)
}

// prettyType is t.String() with yaegi's renamed struct fields (Xx for x)
// shown as declared.
func prettyType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + prettyType(t.Elem())
	case reflect.Slice:
		return "[]" + prettyType(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), prettyType(t.Elem()))
	case reflect.Map:
		return "map[" + prettyType(t.Key()) + "]" + prettyType(t.Elem())
	case reflect.Struct:
		if t.Name() != "" {
			return t.String()
		}
		fields := make([]string, t.NumField())
		for i := range fields {
			f := t.Field(i)
			fields[i] = fieldName(t, f.Name) + " " + prettyType(f.Type)
		}
		if len(fields) == 0 {
			return "struct{}"
		}
		return "struct { " + strings.Join(fields, "; ") + " }"
	}
	return t.String()
}

// cellMethodList shows the methods cells declared on t's cell type.
func (in *inspector) cellMethodList(t reflect.Type) []description {
	ms := cellMethods(in.sc, in.local, t)
	if len(ms) == 0 {
		return nil
	}
	recv := in.typeName(t)
	sigs := make([]string, len(ms))
	for i, m := range ms {
		sigs[i] = "func (" + recv + ") " + m.name + strings.TrimPrefix(m.signature, "func")
	}
	sort.Strings(sigs)
	return []description{{sig: strings.Join(sigs, "\n")}}
}

// funcDeclAt returns the signature of the func declared with its name at
// byte offset off in code, and the comment lines just above it.
func funcDeclAt(code string, off int) (sig, doc string) {
	start := strings.LastIndex(code[:off], "func")
	if start < 0 {
		return "", ""
	}
	end := -1
	for _, t := range tokenize(code[off:]) {
		if t.tok == token.LBRACE && t.depth == 0 {
			end = off + t.off
			break
		}
	}
	if end < 0 {
		end = len(code)
		if nl := strings.IndexByte(code[off:], '\n'); nl >= 0 {
			end = off + nl
		}
	}
	sig = strings.TrimSpace(code[start:end])
	lines := strings.Split(code[:start], "\n")
	var docLines []string
	for i := len(lines) - 2; i >= 0; i-- { // the last element is the func line's indent
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "//") {
			break
		}
		docLines = append([]string{strings.TrimSpace(strings.TrimPrefix(l, "//"))}, docLines...)
	}
	if len(docLines) > 0 {
		doc = strings.Join(docLines, "\n") + "\n"
	}
	return sig, doc
}
