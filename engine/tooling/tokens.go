package tooling

import (
	"go/scanner"
	"go/token"
)

type tokInfo struct {
	tok      token.Token
	lit      string
	off, end int
	depth    int // bracket depth before the token
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
