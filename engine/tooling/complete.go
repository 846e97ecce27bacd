package tooling

import (
	"go/scanner"
	"go/token"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
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
	var cands []candidate
	if dot := selectorDot(code, start); dot >= 0 {
		rs, re := receiverSpan(code, dot)
		if rs < 0 {
			return none
		}
		cands = memberCandidates(sc, code, rs, re)
	} else {
		if prefix == "" && start > 0 && strings.ContainsRune("\"'`)]}0123456789", rune(code[start-1])) {
			return none // right after a literal or a closed bracket no name can follow
		}
		cands = scopeCandidates(sc, code, start)
		if ts, te := literalType(code, start); ts >= 0 {
			cands = append(fieldCandidates(sc, code, ts, te), cands...)
		}
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

// receiverSpan returns the byte span of the operand before the selector
// dot, (-1, -1) when there is none: a chain of identifiers, calls, index
// expressions and composite literals such as t.Face("0 a b").Cells[0]. Brackets are
// matched backwards; the operand ends at anything that cannot be part of
// a primary expression.
func receiverSpan(code string, dot int) (start, end int) {
	i := dot
	for {
		for i > 0 && (code[i-1] == ')' || code[i-1] == ']' || code[i-1] == '}') {
			j := matchOpen(code, i-1)
			if j < 0 {
				return -1, -1
			}
			i = j
		}
		s, _ := wordAround(code, i)
		if s == i {
			if i < dot && code[i] == '(' {
				break // a parenthesized operand: (x).M
			}
			return -1, -1
		}
		i = s
		if i > 0 && code[i-1] == '.' {
			i--
			continue
		}
		break
	}
	end = dot
	for end > i && strings.ContainsRune(" \t\r\n", rune(code[end-1])) {
		end--
	}
	if end == i {
		return -1, -1
	}
	return i, end
}

// literalType returns the byte span of the type of the composite literal
// in which a key may start at start (Board{Ce, &games.Pos{..., x: 1, Ce),
// or (-1, -1).
func literalType(code string, start int) (ts, te int) {
	i := start
	for i > 0 && strings.ContainsRune(" \t\r\n", rune(code[i-1])) {
		i--
	}
	if i == 0 || (code[i-1] != '{' && code[i-1] != ',') {
		return -1, -1
	}
	depth := 0
	for i--; i >= 0; i-- {
		switch code[i] {
		case ')', ']', '}':
			depth++
		case '(', '[':
			if depth == 0 {
				return -1, -1
			}
			depth--
		case '{':
			if depth > 0 {
				depth--
				continue
			}
			return receiverSpan(code, i)
		}
	}
	return -1, -1
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
