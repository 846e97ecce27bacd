package tooling

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// isComplete answers Jupyter's is_complete_request for a cell: whether a
// console should run it on Enter ("complete" or "invalid") or let the user
// keep typing ("incomplete", with the indent for the next line).
//
// The decision follows Go's own line rule: a line ends a statement only
// after an identifier, a literal, one of break/continue/fallthrough/return,
// ++, --, ), ] or }. So an open bracket, an unterminated raw string or block
// comment, or a line ending in an operator, comma or keyword means more is
// coming. Anything else is parsed: a syntax error that more lines cannot
// fix makes the cell "invalid", so the console runs it and shows the error.
// indentUnit is one level of indentation for the next line. Spaces, not
// gofmt's tab: jupyter console (prompt_toolkit) shows a typed tab as "^I".
const indentUnit = "    "

func isComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	src := []byte(code)
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))

	var (
		unterminated bool // raw string or block comment left open
		fatal        bool // an error no further line can repair
	)
	errh := func(pos token.Position, msg string) {
		switch {
		case strings.HasPrefix(msg, "raw string literal not terminated"),
			strings.HasPrefix(msg, "comment not terminated"):
			unterminated = true
		default:
			fatal = true
		}
	}
	var s scanner.Scanner
	s.Init(file, src, errh, scanner.ScanComments)

	var (
		stack []token.Token // open brackets
		last  token.Token   // last token that is not a comment or auto-semicolon
	)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.COMMENT:
			continue
		case token.SEMICOLON:
			if lit == "\n" {
				// Inserted by the scanner: the line ended a statement.
				last = token.SEMICOLON
				continue
			}
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(stack) == 0 || closer(stack[len(stack)-1]) != tok {
				return "invalid", ""
			}
			stack = stack[:len(stack)-1]
		}
		last = tok
	}
	if fatal {
		return "invalid", ""
	}
	if unterminated {
		return "incomplete", strings.Repeat(indentUnit, len(stack))
	}
	if len(stack) > 0 {
		return "incomplete", strings.Repeat(indentUnit, len(stack))
	}
	if continues(last) {
		// A continuation line is indented one level deeper, as gofmt does.
		return "incomplete", indentUnit
	}
	if !parsesAsCell(code) {
		return "invalid", ""
	}
	return "complete", ""
}

func closer(open token.Token) token.Token {
	switch open {
	case token.LPAREN:
		return token.RPAREN
	case token.LBRACK:
		return token.RBRACK
	}
	return token.RBRACE
}

// continues reports whether a line ending in tok runs on to the next line
// under Go's semicolon insertion rule.
func continues(tok token.Token) bool {
	switch tok {
	case token.SEMICOLON, token.ILLEGAL,
		token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING,
		token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN,
		token.INC, token.DEC, token.RPAREN, token.RBRACK, token.RBRACE:
		return false
	}
	return true
}

// parsesAsCell reports whether code is syntactically a cell: a sequence of
// top-level chunks (split at line ends where Go would end a statement, at
// bracket depth zero), each of which is an import, a declaration or a statement list.
// Chunks are checked one by one because a cell mixes declarations and
// statements, which no single Go production accepts.
func parsesAsCell(code string) bool {
	for _, chunk := range topLevelChunks(code) {
		if !parsesAsChunk(chunk) {
			return false
		}
	}
	return true
}

func topLevelChunks(code string) []string {
	src := []byte(code)
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var (
		chunks []string
		depth  int
		start  = 0
	)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.SEMICOLON:
			// Only line ends split: a written ';' may be inside a for
			// clause, and statements joined by ';' parse together anyway.
			if depth == 0 && lit == "\n" {
				end := file.Offset(pos)
				if end > len(code) {
					end = len(code)
				}
				if c := strings.TrimSpace(code[start:end]); c != "" {
					chunks = append(chunks, c)
				}
				start = end
			}
		}
	}
	if c := strings.TrimSpace(code[start:]); c != "" {
		chunks = append(chunks, c)
	}
	return chunks
}

func parsesAsChunk(chunk string) bool {
	fset := token.NewFileSet()
	first := firstWord(skipComments(chunk))
	switch first {
	case "package":
		_, err := parser.ParseFile(fset, "cell", chunk, parser.PackageClauseOnly)
		return err == nil
	case "import", "func", "type", "var", "const":
		if f, err := parser.ParseFile(fset, "cell", "package p;"+chunk, 0); err == nil {
			// A body-less func is legal Go (implemented in assembly) but
			// in a cell it means the brace went on the next line.
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
					return false
				}
			}
			return true
		}
		if first == "import" {
			return false
		}
	}
	// Statements: a function literal call, an assignment, a loop...
	_, err := parser.ParseFile(fset, "cell", "package p;func _(){"+chunk+"\n}", 0)
	return err == nil
}

func firstWord(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	if end < 0 {
		return s
	}
	return s[:end]
}

// skipComments drops the comments a chunk starts with: the scanner leaves
// them in the chunk, and "// doc\nfunc f() {}" is a declaration.
func skipComments(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "//"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return s
			}
			s = s[i+2:]
		default:
			return s
		}
	}
}
