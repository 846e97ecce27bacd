package tooling

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"grundy/engine/display"
	"grundy/engine/typecheck"
	"grundy/stdlib/human"
)

// inspect answers inspect_request (Shift-Tab in Jupyter): what the name at
// the cursor is, as the type oracle types it where it stands. A library
// symbol shows its declaration and doc comment; a variable its type and,
// for the session's, its current value. With the cursor inside a call's
// parentheses (or its string arguments) it describes the called function,
// which is what a user pausing there wants to know.
func inspect(sc Session, code string, cursor, detail int) (display.Bundle, bool) {
	at := byteOffset(code, cursor)
	start, end := inspectTarget(code, at)
	if start < 0 {
		return nil, false
	}
	// The whole cell first: a name being declared is found as declared.
	texts := append([]draftText{{code + closers(code), start}}, cutTexts(code, start, code[start:end])...)
	d, off := newDraft(sc, texts)
	if d == nil {
		return nil, false
	}
	e := d.exprAt(off, off+end-start)
	if e == nil {
		return nil, false
	}
	in := &inspector{sc: sc, d: d, code: code, detail: detail}
	desc, ok := in.describe(e)
	if !ok {
		return nil, false
	}
	return desc.bundle(), true
}

// inspectTarget returns the byte span of the expression to describe: the
// identifier (with its selector chain) touching the cursor, or else the
// function whose call parentheses enclose the cursor; (-1, -1) for none.
func inspectTarget(code string, at int) (start, end int) {
	if inComment(code[:at]) {
		return -1, -1
	}
	if !insideCommentOrString(code[:at]) {
		start, end := wordAround(code, at)
		if start < end && !strings.ContainsRune("0123456789", rune(code[start])) {
			if dot := selectorDot(code, start); dot >= 0 {
				if rs, _ := receiverSpan(code, dot); rs >= 0 {
					return rs, end
				}
				return -1, -1
			}
			return start, end
		}
		if start == end && at > 0 && code[at-1] == '.' {
			return receiverSpan(code, at-1) // "games." describes games
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
		if rs, re := receiverSpan(code, open[i]); rs >= 0 {
			return rs, re
		}
	}
	return -1, -1
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
	d      *draft
	code   string
	detail int
}

func (in *inspector) describe(e ast.Expr) (description, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		return in.object(in.d.info.ObjectOf(e), e.Name)
	case *ast.SelectorExpr:
		if sel, ok := in.d.info.Selections[e]; ok {
			return in.member(e, sel)
		}
		if obj := in.d.info.ObjectOf(e.Sel); obj != nil { // pkg.Name
			return in.object(obj, types.ExprString(e))
		}
		// A method the cell declares on an earlier cell's type.
		for _, m := range in.d.info.DraftMethods(namedOf(in.d.info.TypeOf(e.X))) {
			if m.Name() == e.Sel.Name {
				return in.object(m, "")
			}
		}
	}
	return description{}, false
}

// object describes a named entity; expr is how the cell refers to it.
func (in *inspector) object(obj types.Object, expr string) (description, bool) {
	if obj == nil {
		return description{}, false
	}
	switch obj := obj.(type) {
	case *types.PkgName:
		path := obj.Imported().Path()
		if d, ok := lookupDoc(path, path); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
		return description{sig: "package " + obj.Name() + ` // import "` + path + `"`}, true
	case *types.Builtin, *types.Nil:
		if d, ok := stdlibDoc("builtin", "builtin."+obj.Name()); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
		return description{sig: obj.Name() + " (predeclared)"}, true
	}
	if obj.Pkg() == nil { // a predeclared type or constant
		if d, ok := stdlibDoc("builtin", "builtin."+obj.Name()); ok {
			return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
		}
		return description{sig: obj.Name() + " (predeclared)"}, true
	}
	var desc description
	if path := obj.Pkg().Path(); path != "main" {
		d, ok := lookupDoc(path, path+"."+obj.Name())
		if ok {
			desc = description{sig: d.Sig, doc: in.trimDoc(d.Doc)}
		} else {
			desc.sig = objectString(obj)
		}
	} else {
		desc.sig = objectString(obj)
		if fn, ok := obj.(*types.Func); ok && in.declaredHere(fn) {
			if off := in.d.offset(fn.Pos()); off >= 0 && off <= len(in.code) {
				if sig, doc := funcDeclAt(in.code, off); sig != "" {
					desc.sig, desc.doc = sig, doc
				}
			}
		} else if doc := in.sc.Types().Doc(obj); doc != "" {
			// A function, method or type of an earlier cell.
			desc.doc = in.trimDoc(doc)
		}
	}
	switch obj := obj.(type) {
	case *types.Var:
		if in.isLive(obj) {
			if v, ok := in.sc.ValueOf(expr); ok && v.IsValid() {
				desc.value = in.formatValue(v)
				if obj.Type() == types.Typ[types.Invalid] {
					// The oracle could not type its cell; the value has a type.
					desc.sig = "var " + obj.Name() + " " + v.Type().String()
				}
			}
		}
		desc.extras = append(desc.extras, in.typeExtras(obj.Type())...)
	case *types.Const:
		desc.value = obj.Val().ExactString()
	case *types.TypeName:
		if obj.Pkg().Path() == "main" {
			desc.extras = append(desc.extras, cellMethodList(obj.Type())...)
		} else {
			desc = in.withMethods(desc, obj.Type())
		}
	}
	return desc, true
}

// declaredHere reports whether fn is declared in the cell being edited:
// a function of its package, or a method it adds to an earlier cell's
// type.
func (in *inspector) declaredHere(fn *types.Func) bool {
	if fn.Pkg() == in.d.info.Pkg {
		return true
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	return slices.Contains(in.d.info.DraftMethods(namedOf(sig.Recv().Type())), fn)
}

// isLive reports whether v has a value in the session: a variable of an
// earlier cell, or of a package.
func (in *inspector) isLive(v *types.Var) bool {
	if v.Pkg() == nil || v.Pkg() == in.d.info.Pkg {
		return false // declared by this cell: it has not run
	}
	if v.Pkg().Path() != "main" {
		return v.Parent() == v.Pkg().Scope()
	}
	return in.sc.Types().Lookup(v.Name()) == v
}

// member describes x.name, a field or method.
func (in *inspector) member(e *ast.SelectorExpr, sel *types.Selection) (description, bool) {
	switch obj := sel.Obj().(type) {
	case *types.Func:
		sig := obj.Type().(*types.Signature)
		var named *types.Named
		if sig.Recv() != nil {
			named = namedOf(sig.Recv().Type())
		}
		if named == nil { // an interface's method: its receiver has no name
			named = namedOf(sel.Recv())
			sig = types.NewSignatureType(types.NewParam(token.NoPos, nil, "", sel.Recv()), nil, nil, sig.Params(), sig.Results(), sig.Variadic())
		}
		if named != nil && named.Obj().Pkg() != nil {
			path := named.Obj().Pkg().Path()
			if d, ok := lookupDoc(path, path+"."+named.Obj().Name()+"."+obj.Name()); ok {
				return description{sig: d.Sig, doc: in.trimDoc(d.Doc)}, true
			}
		}
		// (A method of an earlier cell's type has its doc comment.)
		return description{sig: objectString(types.NewFunc(obj.Pos(), obj.Pkg(), obj.Name(), sig)), doc: in.trimDoc(in.sc.Types().Doc(obj))}, true
	case *types.Var:
		desc := description{sig: "field " + obj.Name() + " " + typeString(obj.Type()) + " // in " + typeString(deref(sel.Recv()))}
		if root := rootIdent(e); root != nil {
			if v, ok := in.d.info.ObjectOf(root).(*types.Var); ok && in.isLive(v) {
				if val, ok := in.sc.ValueOf(types.ExprString(e)); ok && val.IsValid() {
					desc.value = in.formatValue(val)
				}
			}
		}
		if td, ok := typeDoc(obj.Type()); ok {
			desc.extras = append(desc.extras, in.withMethods(td, obj.Type()))
		}
		return desc, true
	}
	return description{}, false
}

// typeExtras describes a variable's type: a library type's doc and
// methods, a cell type's methods.
func (in *inspector) typeExtras(t types.Type) []description {
	if td, ok := typeDoc(t); ok {
		return []description{in.withMethods(td, t)}
	}
	if named := namedOf(t); named != nil && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "main" {
		return cellMethodList(named)
	}
	return nil
}

// rootIdent is the identifier a selector chain starts from, or nil when
// it starts from anything else (a call, an index).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		default:
			return nil
		}
	}
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// namedOf is t's named type, through one pointer, or nil.
func namedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	n, _ := types.Unalias(deref(types.Unalias(t))).(*types.Named)
	return n
}

// withMethods adds the one-line signatures of a documented type's methods.
func (in *inspector) withMethods(d description, t types.Type) description {
	named := namedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return d
	}
	prefix := named.Obj().Pkg().Path() + "." + named.Obj().Name() + "."
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

// typeDoc is the documentation of t's named library type (through one
// pointer).
func typeDoc(t types.Type) (description, bool) {
	named := namedOf(t)
	if named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() == "main" {
		return description{}, false
	}
	path := named.Obj().Pkg().Path()
	d, ok := lookupDoc(path, path+"."+named.Obj().Name())
	if !ok {
		return description{}, false
	}
	return description{sig: d.Sig, doc: d.Doc}, true
}

// cellMethodList shows the methods cells declared on a cell type.
func cellMethodList(t types.Type) []description {
	named := namedOf(t)
	if named == nil || named.NumMethods() == 0 {
		return nil
	}
	sigs := make([]string, named.NumMethods())
	for i := range sigs {
		sigs[i] = objectString(named.Method(i))
	}
	sort.Strings(sigs)
	return []description{{sig: strings.Join(sigs, "\n")}}
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
	return sig, typecheck.DocAbove(lines[:len(lines)-1]) // (the last element is the func line's indent)
}
