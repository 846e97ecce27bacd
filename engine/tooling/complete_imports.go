package tooling

import (
	"go/token"
	"strings"

	"github.com/traefik/yaegi/stdlib"
)

// importablePaths lists the packages a cell can import: Go's standard
// library as the interpreter carries it, and whatever the session knows.
func importablePaths(sc Session) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && !seen[p] && !strings.Contains(p, "internal") && !strings.HasPrefix(p, "_") {
			seen[p] = true
			out = append(out, p)
		}
	}
	for key := range stdlib.Symbols {
		if i := strings.LastIndexByte(key, '/'); i > 0 {
			add(key[:i])
		}
	}
	if tc := sc.Types(); tc != nil {
		for _, p := range tc.Packages() {
			add(p)
		}
	}
	return out
}

// importPathPrefix reports whether the cursor (at the end of before) is
// inside the quoted path of an import, and the part of the path typed so
// far.
func importPathPrefix(before string) (prefix string, ok bool) {
	toks := tokenize(before)
	n := len(toks)
	for n > 0 && toks[n-1].tok == token.SEMICOLON && toks[n-1].off >= len(before) {
		n-- // inserted at the end of the text
	}
	if n == 0 || toks[n-1].tok != token.STRING || toks[n-1].end < len(before) {
		return "", false
	}
	lit := toks[n-1].lit
	if len(lit) == 0 || lit[0] != '"' || len(lit) > 1 && strings.HasSuffix(lit, `"`) {
		return "", false // a raw string, or the path is already closed
	}
	for i := n - 2; i >= 0; i-- {
		switch toks[i].tok {
		case token.IMPORT:
			return lit[1:], true
		case token.IDENT, token.SEMICOLON, token.STRING, token.PERIOD:
			continue // an alias, or earlier specs in a group
		case token.LPAREN:
			return lit[1:], i > 0 && toks[i-1].tok == token.IMPORT
		default:
			return "", false
		}
	}
	return "", false
}
