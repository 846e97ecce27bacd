package tooling

import (
	"go/scanner"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// cellScope is what the cell being edited declares, read from its tokens
// (not its syntax tree: while the user types, the cell rarely parses).
type cellScope struct {
	decls []cellDecl
}

type cellDecl struct {
	name string
	kind string // Jupyter completion type: function, class, instance, module
	off  int    // byte offset of the name
	// The source the name's type can be inferred from: an initializer, or
	// a type when isType. For a type declaration, the type it defines; for
	// a method (name "T.M"), its signature as a func type.
	src    string
	isType bool
	result int // which result of the call in src the name receives
}

// lookup returns the last declaration of name before byte offset before.
func (c cellScope) lookup(name string, before int) (cellDecl, bool) {
	var found cellDecl
	ok := false
	for _, d := range c.decls {
		if d.name == name && d.off < before {
			found, ok = d, true
		}
	}
	return found, ok
}

func (c cellScope) shadows(name string) bool {
	for _, d := range c.decls {
		if d.name == name && d.kind != "module" {
			return true
		}
	}
	return false
}

type tokInfo struct {
	tok      token.Token
	lit      string
	off, end int
	depth    int // bracket depth before the token
}

// scanCell collects the names a cell declares anywhere in its code, except
// a name whose identifier spans [skipStart, skipEnd) (the one being typed).
func scanCell(code string, skipStart, skipEnd int) cellScope {
	toks := tokenize(code)
	var sc cellScope
	add := func(i int, kind, src string, isType bool) *cellDecl {
		if i < 0 || i >= len(toks) {
			return nil
		}
		t := toks[i]
		if t.tok != token.IDENT || t.lit == "_" || t.off == skipStart && t.end == skipEnd {
			return nil
		}
		sc.decls = append(sc.decls, cellDecl{name: t.lit, kind: kind, off: t.off, src: src, isType: isType})
		return &sc.decls[len(sc.decls)-1]
	}
	at := func(i int) token.Token {
		if i < 0 || i >= len(toks) {
			return token.EOF
		}
		return toks[i].tok
	}
	// stmtEnd finds the end offset of the expression starting at token i:
	// the next ';' at the same depth, or a bracket closing around it.
	stmtEnd := func(i int) int {
		if i >= len(toks) {
			return len(code)
		}
		d := toks[i].depth
		for j := i; j < len(toks); j++ {
			t := toks[j]
			if t.depth == d && (t.tok == token.SEMICOLON || t.tok == token.COMMA) ||
				t.depth < d || t.depth == d && (t.tok == token.RPAREN || t.tok == token.RBRACE || t.tok == token.RBRACK) {
				return t.off
			}
		}
		return len(code)
	}
	srcFrom := func(i int) string {
		if i >= len(toks) {
			return ""
		}
		return code[toks[i].off:stmtEnd(i)]
	}
	// typeSrc is the type in "var x T = v": up to the '=' or the end.
	typeSrc := func(i int) string {
		end := stmtEnd(i)
		for j := i; j < len(toks) && toks[j].off < end; j++ {
			if toks[j].depth == toks[i].depth && toks[j].tok == token.ASSIGN {
				end = toks[j].off
				break
			}
		}
		return code[toks[i].off:end]
	}
	// specNames handles "a, b T = x, y" after var/const, one spec.
	specNames := func(i int, kind string) {
		first := i
		for at(i) == token.IDENT {
			if at(i+1) != token.COMMA {
				break
			}
			i += 2
		}
		if at(i) != token.IDENT {
			return
		}
		last := i
		single := first == last
		for j := first; j <= last; j += 2 {
			switch {
			case single && at(last+1) == token.ASSIGN:
				add(j, kind, srcFrom(last+2), false)
			case at(last+1) != token.ASSIGN && at(last+1) != token.SEMICOLON:
				add(j, kind, typeSrc(last+1), true) // "var x T" or "var x T = ..."
			default:
				add(j, kind, "", false)
			}
		}
	}
	// group calls f for the first token of each spec in "( ... )" at i.
	group := func(i int, f func(int)) {
		d := toks[i].depth + 1
		f(i + 1)
		for j := i + 1; j < len(toks) && toks[j].depth >= d; j++ {
			if toks[j].depth == d && toks[j].tok == token.SEMICOLON {
				f(j + 1)
			}
		}
	}

	for i, t := range toks {
		switch t.tok {
		case token.FUNC:
			j := i + 1
			if at(j) == token.LPAREN { // a receiver, or a literal's parameters
				k := closing(toks, j)
				if at(k+1) == token.IDENT && at(k+2) == token.LPAREN {
					j = k + 2 // method: its name is not in scope, its receiver is
					params(toks, i+1, func(p int) { add(p, "instance", "", false) })
					if recv := receiverTypeName(toks, i+1, k); recv != "" {
						sc.decls = append(sc.decls, cellDecl{
							name: recv + "." + toks[k+1].lit, kind: "method", off: toks[k+1].off,
							src: "func" + signatureFrom(code, toks, k+2),
						})
					}
				} else {
					params(toks, j, func(p int) { add(p, "instance", "", false) })
					continue
				}
			} else if at(j) == token.IDENT {
				add(j, "function", "", false)
				j++
				if at(j) == token.LBRACK { // type parameters
					params(toks, j, func(p int) { add(p, "class", "", false) })
					j = closing(toks, j) + 1
				}
			}
			if at(j) == token.IDENT {
				j++
			}
			if at(j) == token.LPAREN {
				params(toks, j, func(p int) { add(p, "instance", "", false) })
			}
		case token.TYPE:
			typeSpec := func(j int) {
				src := ""
				if at(j+1) != token.LBRACK && at(j+1) != token.SEMICOLON { // generic types are not matched
					src = strings.TrimPrefix(strings.TrimSpace(srcFrom(j+1)), "=")
				}
				add(j, "class", strings.TrimSpace(src), true)
			}
			if at(i+1) == token.LPAREN {
				group(i+1, typeSpec)
			} else {
				typeSpec(i + 1)
			}
		case token.VAR, token.CONST:
			if at(i+1) == token.LPAREN {
				group(i+1, func(j int) { specNames(j, "instance") })
			} else {
				specNames(i+1, "instance")
			}
		case token.IMPORT:
			spec := func(j int) {
				switch {
				case at(j) == token.STRING:
					if p, err := strconv.Unquote(toks[j].lit); err == nil {
						sc.decls = append(sc.decls, cellDecl{name: path.Base(p), kind: "module", off: toks[j].off, src: p})
					}
				case at(j) == token.IDENT && at(j+1) == token.STRING:
					if p, err := strconv.Unquote(toks[j+1].lit); err == nil {
						add(j, "module", p, false)
					}
				}
			}
			if at(i+1) == token.LPAREN {
				group(i+1, spec)
			} else {
				spec(i + 1)
			}
		case token.DEFINE:
			// Walk back over "a, b, c".
			j := i - 1
			for at(j) == token.IDENT && at(j-1) == token.COMMA && at(j-2) == token.IDENT {
				j -= 2
			}
			if at(j) != token.IDENT {
				continue
			}
			if at(i+1) == token.RANGE {
				// "for i := range xs" gives no initializer to read a type from.
				for k := j; k < i; k += 2 {
					add(k, "instance", "", false)
				}
				continue
			}
			// Right-hand sides: one per name, or one call giving them all.
			var rhs []string
			for k := i + 1; k < len(toks); {
				end := stmtEnd(k)
				rhs = append(rhs, code[toks[k].off:end])
				for k < len(toks) && toks[k].off < end {
					k++
				}
				if at(k) != token.COMMA {
					break
				}
				k++
			}
			names := (i - j + 1) / 2
			for n, k := 0, j; k < i; n, k = n+1, k+2 {
				switch {
				case len(rhs) == names:
					add(k, "instance", rhs[n], false)
				case len(rhs) == 1:
					if d := add(k, "instance", rhs[0], false); d != nil {
						d.result = n
					}
				default:
					add(k, "instance", "", false)
				}
			}
		}
	}
	return sc
}

// receiverTypeName reads T from a receiver list "(r *T)", "(T)" or
// "(r T[P])" spanning tokens open..close.
func receiverTypeName(toks []tokInfo, open, close int) string {
	var names []string
	for j := open + 1; j < close; j++ {
		if toks[j].tok == token.IDENT && toks[j].depth == toks[open].depth+1 {
			names = append(names, toks[j].lit)
		}
	}
	switch {
	case len(names) >= 2:
		return names[1]
	case len(names) == 1:
		return names[0]
	}
	return ""
}

// signatureFrom returns a func's parameters and results, from the "(" at
// token i to its body's "{" (or the end of the line).
func signatureFrom(code string, toks []tokInfo, i int) string {
	if i >= len(toks) {
		return "()"
	}
	d := toks[i].depth
	for j := i; j < len(toks); j++ {
		if toks[j].depth == d && (toks[j].tok == token.LBRACE || toks[j].tok == token.SEMICOLON) {
			return strings.TrimSpace(code[toks[i].off:toks[j].off])
		}
	}
	return strings.TrimSpace(code[toks[i].off:])
}

// params calls f for each parameter name in the list opening at token i:
// identifiers after "(" or "," that are followed by something that starts
// a type (so unnamed parameters such as pkg.T are not taken for names).
func params(toks []tokInfo, i int, f func(int)) {
	if i >= len(toks) {
		return
	}
	d := toks[i].depth + 1
	for j := i + 1; j < len(toks) && toks[j].depth >= d; j++ {
		if toks[j].depth != d || toks[j].tok != token.IDENT {
			continue
		}
		prev := toks[j-1].tok
		if prev != token.LPAREN && prev != token.LBRACK && prev != token.COMMA {
			continue
		}
		if j+1 >= len(toks) {
			return
		}
		switch toks[j+1].tok {
		case token.COMMA, token.IDENT, token.MUL, token.LBRACK, token.ELLIPSIS,
			token.FUNC, token.MAP, token.CHAN, token.STRUCT, token.INTERFACE, token.ARROW:
			f(j)
		}
	}
}

// closing returns the index of the token closing the bracket at i, or the
// last token when it is never closed.
func closing(toks []tokInfo, i int) int {
	d := toks[i].depth
	for j := i + 1; j < len(toks); j++ {
		if toks[j].depth == d+1 && (toks[j].tok == token.RPAREN || toks[j].tok == token.RBRACK || toks[j].tok == token.RBRACE) {
			return j
		}
		if toks[j].depth <= d {
			return j
		}
	}
	return len(toks) - 1
}

// tokenize scans code, tolerating errors, and records each token's bracket
// depth. A closing bracket carries the depth inside it.
func tokenize(code string) []tokInfo { return tokenizeMode(code, 0) }

// tokenizeComments is tokenize keeping comments as tokens.
func tokenizeComments(code string) []tokInfo { return tokenizeMode(code, scanner.ScanComments) }

func tokenizeMode(code string, mode scanner.Mode) []tokInfo {
	src := []byte(code)
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, mode)
	var toks []tokInfo
	depth := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if lit == "" || tok == token.SEMICOLON {
			lit = tok.String()
			if tok == token.SEMICOLON {
				lit = ""
			}
		}
		t := tokInfo{tok: tok, lit: lit, off: off, end: off + len(lit), depth: depth}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		}
		toks = append(toks, t)
	}
	return toks
}
