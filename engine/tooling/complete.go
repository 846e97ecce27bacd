package tooling

import (
	"go/constant"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"grundy/engine/prelude"
)

// goKeywords and goBuiltins are what a cell can always type, whatever it
// declared or imported.
var goKeywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface",
	"map", "package", "range", "return", "select", "struct", "switch", "type", "var",
}

var goBuiltins = map[string]string{ // name -> Jupyter completion type
	"append": "function", "cap": "function", "clear": "function", "close": "function",
	"complex": "function", "copy": "function", "delete": "function", "imag": "function",
	"len": "function", "make": "function", "max": "function", "min": "function",
	"new": "function", "panic": "function", "print": "function", "println": "function",
	"real": "function", "recover": "function",
	"any": "class", "bool": "class", "byte": "class", "comparable": "class",
	"complex64": "class", "complex128": "class", "error": "class",
	"float32": "class", "float64": "class", "int": "class", "int8": "class",
	"int16": "class", "int32": "class", "int64": "class", "rune": "class",
	"string": "class", "uint": "class", "uint8": "class", "uint16": "class",
	"uint32": "class", "uint64": "class", "uintptr": "class",
	"true": "instance", "false": "instance", "iota": "instance", "nil": "instance",
}

// candidate is one completion before filtering: the name and what Jupyter
// frontends show beside it.
type candidate struct {
	name, kind, signature string
}

// complete answers complete_request. cursor counts Unicode code points, as
// the Jupyter protocol does; so do the returned cursor_start and cursor_end.
func complete(sc Session, code string, cursor int) Completion {
	at := byteOffset(code, cursor)
	none := Completion{CursorStart: runeCount(code[:at]), CursorEnd: runeCount(code[:at]), Matches: []string{}}
	if prefix, ok := importPathPrefix(code[:at]); ok {
		var cands []candidate
		for _, p := range importablePaths(sc) {
			cands = append(cands, candidate{p, "module", ""})
		}
		return finish(filterCandidates(cands, prefix), runeCount(code[:at-len(prefix)]), none.CursorEnd)
	}
	if insideCommentOrString(code[:at]) {
		return none
	}
	start, end := wordAround(code, at)
	prefix := code[start:at]
	if prefix != "" && unicode.IsDigit(firstRune(prefix)) {
		return none
	}
	local := scanCell(code, start, end)

	var cands []candidate
	if dot := selectorDot(code, start); dot >= 0 {
		recv := receiverExpr(code, dot)
		if recv == "" {
			return none
		}
		cands = memberCandidates(sc, recv, local, dot)
	} else {
		if prefix == "" && start > 0 && strings.ContainsRune("\"'`)]}0123456789", rune(code[start-1])) {
			return none // right after a literal or a closed bracket no name can follow
		}
		cands = scopeCandidates(sc, local)
	}

	return finish(filterCandidates(cands, prefix), runeCount(code[:start]), runeCount(code[:end]))
}

// finish builds the reply for matches replacing code points start..end.
func finish(matches []candidate, start, end int) Completion {
	c := Completion{
		Matches:     make([]string, 0, len(matches)),
		CursorStart: start,
		CursorEnd:   end,
	}
	types := make([]any, 0, len(matches))
	for _, m := range matches {
		c.Matches = append(c.Matches, m.name)
		types = append(types, map[string]any{
			"start":     c.CursorStart,
			"end":       c.CursorEnd,
			"text":      m.name,
			"type":      m.kind,
			"signature": m.signature,
		})
	}
	// JupyterLab reads this key to label each match with its kind.
	c.Metadata = map[string]any{"_jupyter_types_experimental": types}
	return c
}

// filterCandidates keeps the names starting with prefix, sorted and
// deduplicated (the first kind seen for a name wins). When nothing matches
// exactly it retries ignoring case, so "games.circ" still finds CircularNim.
func filterCandidates(cands []candidate, prefix string) []candidate {
	pick := func(match func(string) bool) []candidate {
		seen := map[string]bool{}
		var out []candidate
		for _, c := range cands {
			if c.name == "" || seen[c.name] || !match(c.name) {
				continue
			}
			seen[c.name] = true
			out = append(out, c)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
		return out
	}
	out := pick(func(n string) bool { return strings.HasPrefix(n, prefix) })
	if len(out) == 0 && prefix != "" {
		lower := strings.ToLower(prefix)
		out = pick(func(n string) bool { return strings.HasPrefix(strings.ToLower(n), lower) })
	}
	return out
}

// scopeCandidates lists every name usable at the top of an expression.
func scopeCandidates(sc Session, local cellScope) []candidate {
	var out []candidate
	for _, d := range local.decls {
		if d.kind != "method" {
			out = append(out, candidate{d.name, d.kind, ""})
		}
	}
	for _, g := range sc.Globals() {
		if g.Kind != "method" {
			out = append(out, candidate{g.Name, jupyterKind(g.Kind), g.Type})
		}
	}
	for name, p := range sc.Packages() {
		out = append(out, candidate{name, "module", p.Path})
	}
	for _, k := range goKeywords {
		out = append(out, candidate{k, "keyword", ""})
	}
	for name, kind := range goBuiltins {
		out = append(out, candidate{name, kind, ""})
	}
	return out
}

func jupyterKind(globalKind string) string {
	switch globalKind {
	case "func":
		return "function"
	case "type":
		return "class"
	case "import":
		return "module"
	}
	return "instance"
}

// memberCandidates lists what may follow "recv.": a package's exported
// symbols, or the fields and methods of recv's type.
func memberCandidates(sc Session, recv string, local cellScope, before int) []candidate {
	pkgs := sc.Packages()
	p, ok := pkgs[recv]
	if d, isLocal := local.lookup(recv, before); isLocal && d.kind == "module" && d.src != "" {
		// Imported by this cell: the session may not have it yet.
		if syms, found := importedSymbols(d.src); found && (!ok || p.Path != d.src) {
			p, ok = PackageSymbols{Path: d.src, Symbols: syms}, true
		}
	}
	if !ok && !local.shadows(recv) && !globalShadows(sc, recv) {
		// A standard package the cell will import when it runs.
		if path := prelude.StandardPackage(recv); path != "" {
			if syms, found := importedSymbols(path); found {
				p, ok = PackageSymbols{Path: path, Symbols: syms}, true
			}
		}
	}
	if ok && !local.shadows(recv) && !globalShadows(sc, recv) {
		var out []candidate
		for name, v := range p.Symbols {
			if strings.HasPrefix(name, "_") {
				continue // yaegi's interface wrappers
			}
			kind, typ := classifySymbol(v)
			sig := ""
			if d, ok := libDocs[p.Path+"."+name]; ok {
				sig = d.Sig
			} else if typ != nil && kind != "type" {
				sig = typ.String()
			}
			out = append(out, candidate{name, jupyterKind(kind), sig})
		}
		return out
	}
	t := inferType(sc, recv, local, before)
	if t == nil {
		return nil
	}
	return append(typeMembers(t), cellMethods(sc, local, t)...)
}

// typeMembers lists the exported fields (including promoted ones) and the
// methods of t, looking through one pointer: a variable is addressable, so
// pointer methods count too.
func typeMembers(t reflect.Type) []candidate {
	var out []candidate
	mt := t
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		mt = reflect.PointerTo(t)
	}
	for i := 0; i < mt.NumMethod(); i++ {
		m := mt.Method(i)
		if !m.IsExported() {
			continue
		}
		out = append(out, candidate{m.Name, "function", methodSignature(mt, m)})
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for _, f := range reflect.VisibleFields(st) {
			if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Interface {
				continue
			}
			out = append(out, candidate{fieldName(st, f.Name), "property", f.Type.String()})
		}
	}
	return out
}

// fieldName undoes yaegi's renaming: a struct type declared in a cell is
// built with reflect.StructOf, which cannot hold unexported fields, so yaegi
// stores field x as Xx. Named (compiled) types are left alone.
func fieldName(st reflect.Type, name string) string {
	if st.Name() == "" && len(name) > 1 && name[0] == 'X' {
		r, _ := utf8.DecodeRuneInString(name[1:])
		if unicode.IsLower(r) || r == '_' {
			return name[1:]
		}
	}
	return name
}

func methodSignature(recv reflect.Type, m reflect.Method) string {
	if recv.Kind() == reflect.Interface {
		return m.Type.String()
	}
	// Drop the receiver, which reflect lists as the first parameter.
	ft := m.Type
	in := make([]string, 0, ft.NumIn())
	for i := 1; i < ft.NumIn(); i++ {
		s := ft.In(i).String()
		if ft.IsVariadic() && i == ft.NumIn()-1 {
			s = "..." + ft.In(i).Elem().String()
		}
		in = append(in, s)
	}
	sig := "func(" + strings.Join(in, ", ") + ")"
	switch ft.NumOut() {
	case 0:
	case 1:
		sig += " " + ft.Out(0).String()
	default:
		outs := make([]string, ft.NumOut())
		for i := range outs {
			outs[i] = ft.Out(i).String()
		}
		sig += " (" + strings.Join(outs, ", ") + ")"
	}
	return sig
}

// classifySymbol reads a yaegi symbol table entry: functions are func
// values, types are typed nil pointers, variables are pointers to the
// variable, untyped constants are go/constant values, typed constants are
// plain values; a missing value is a function the interpreter compiles
// from source.
func classifySymbol(v reflect.Value) (kind string, typ reflect.Type) {
	if !v.IsValid() {
		// The session lists the functions of packages it interprets from
		// source (generic ones such as slices) without values.
		return "func", nil
	}
	switch {
	case v.Kind() == reflect.Func:
		return "func", v.Type()
	case v.Kind() == reflect.Pointer && v.IsNil():
		return "type", v.Type().Elem()
	case v.Kind() == reflect.Pointer:
		return "var", v.Type().Elem()
	}
	if c, ok := v.Interface().(constant.Value); ok {
		return "const", untypedConstType(c)
	}
	return "const", v.Type()
}

func untypedConstType(c constant.Value) reflect.Type {
	switch c.Kind() {
	case constant.Bool:
		return reflect.TypeFor[bool]()
	case constant.String:
		return reflect.TypeFor[string]()
	case constant.Int:
		return reflect.TypeFor[int]()
	case constant.Float:
		return reflect.TypeFor[float64]()
	case constant.Complex:
		return reflect.TypeFor[complex128]()
	}
	return nil
}

func globalShadows(sc Session, name string) bool {
	for _, g := range sc.Globals() {
		if g.Name == name && g.Kind != "import" {
			return true
		}
	}
	return false
}

// byteOffset converts a code-point offset into a byte offset, clamped to
// the text.
func byteOffset(s string, cursor int) int {
	if cursor <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == cursor {
			return i
		}
		n++
	}
	return len(s)
}

func runeCount(s string) int { return utf8.RuneCountInString(s) }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordAround returns the byte span of the identifier touching offset at.
func wordAround(code string, at int) (start, end int) {
	start = at
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	end = at
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !isIdentRune(r) {
			break
		}
		end += size
	}
	return start, end
}

// selectorDot returns the offset of the '.' just before the word starting
// at start (spaces and newlines between are allowed, as in Go), or -1.
func selectorDot(code string, start int) int {
	i := start
	for i > 0 && strings.ContainsRune(" \t\r\n", rune(code[i-1])) {
		i--
	}
	if i > 0 && code[i-1] == '.' {
		if i > 1 && code[i-2] == '.' {
			return -1 // "..." is not a selector
		}
		return i - 1
	}
	return -1
}

// receiverExpr returns the source of the operand before the selector dot:
// a chain of identifiers, calls and index expressions such as
// t.Face("0 a b").Cells[0]. Brackets are matched backwards; the operand
// ends at anything that cannot be part of a primary expression.
func receiverExpr(code string, dot int) string {
	i := dot
	for {
		for i > 0 && (code[i-1] == ')' || code[i-1] == ']') {
			j := matchOpen(code, i-1)
			if j < 0 {
				return ""
			}
			i = j
		}
		s, _ := wordAround(code, i)
		if s == i {
			if i < dot && code[i] == '(' {
				break // a parenthesized operand: (x).M
			}
			return ""
		}
		i = s
		if i > 0 && code[i-1] == '.' {
			i--
			continue
		}
		break
	}
	return strings.TrimSpace(code[i:dot])
}

// matchOpen finds the bracket opening the one that closes at code[close].
func matchOpen(code string, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch code[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// insideCommentOrString reports whether the end of before lies in a comment
// or an unfinished string, where completing names would only get in the way.
func insideCommentOrString(before string) bool {
	src := []byte(before)
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	open := false
	errh := func(_ token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			open = true
		}
	}
	var s scanner.Scanner
	s.Init(file, src, errh, scanner.ScanComments)
	var (
		last    token.Token
		lastLit string
		lastEnd int
	)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		last, lastLit, lastEnd = tok, lit, file.Offset(pos)+len(lit)
	}
	if open {
		return true
	}
	return last == token.COMMENT && strings.HasPrefix(lastLit, "//") && lastEnd >= len(before)
}
