package tooling

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/cell"
	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// draft is the cell being edited as the type oracle sees it. While the
// user types, a cell rarely parses, so it is cut where the question is
// asked and its open brackets are closed: what comes before the cursor is
// what decides the answer, as it does for the compiler.
type draft struct {
	info  *typecheck.Info
	fset  *token.FileSet
	roots []ast.Node // the cell's declarations and statements
	lines []int      // byte offset of each line of the checked text
	size  int        // the checked text's length
	// imports are the packages the cell imports, by the names it uses.
	imports map[string]string
}

// newDraft checks the first of texts (the cell completed in different
// ways) that parses; nil when none does. at is where the text puts the
// operand the question is about.
func newDraft(sc Session, texts []draftText) (d *draft, at int) {
	for _, t := range texts {
		if d := checkDraft(sc, t.src); d != nil {
			return d, t.at
		}
	}
	return nil, -1
}

// draftText is one way to complete the cell: its source, and where the
// operand the question is about starts in it.
type draftText struct {
	src string
	at  int
}

// cutTexts are the ways to complete code cut at cut and followed by
// operand, in the order tried: the open brackets closed; a statement
// header given an empty body (the cursor in "if x." or "switch v."); the
// cell up to the start of the line, then operand in a statement of its
// own; operand alone, in the session.
func cutTexts(code string, cut int, operand string) []draftText {
	pre := code[:cut] + operand
	closed := closers(pre)
	out := []draftText{{pre + closed, cut}, {pre + " {}" + closed, cut}}
	if nl := strings.LastIndexByte(code[:cut], '\n') + 1; nl < cut {
		line := code[:nl] + "_ = "
		out = append(out, draftText{line + operand + closers(line), len(line)})
	}
	return append(out, draftText{"_ = " + operand, len("_ = ")})
}

// closers is what closes the brackets still open at the end of code.
func closers(code string) string {
	var open []byte
	for _, t := range tokenize(code) {
		switch t.tok {
		case token.LPAREN:
			open = append(open, ')')
		case token.LBRACK:
			open = append(open, ']')
		case token.LBRACE:
			open = append(open, '}')
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	// Right after the operand, with no newline, so that a composite
	// literal closed after its last element needs no comma.
	slices.Reverse(open)
	return string(open)
}

func checkDraft(sc Session, src string) *draft {
	tc := sc.Types()
	if tc == nil {
		return nil
	}
	fset := token.NewFileSet()
	pc, err := cell.Parse(fset, "cell", src)
	if err != nil {
		return nil
	}
	d := &draft{fset: fset, lines: []int{0}, size: len(src)}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	var c typecheck.Cell
	imports := map[string]string{}
	if pc.Imports != nil {
		for _, is := range pc.Imports.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				continue
			}
			name := path.Base(p)
			if pkg, err := tc.Universe().Import(p); err == nil && pkg != nil {
				name = pkg.Name()
			}
			if is.Name != nil {
				name = is.Name.Name
			}
			imports[name] = p
		}
	}
	if pc.Decls != nil {
		for _, x := range pc.Decls.Decls {
			d.roots = append(d.roots, x)
		}
		c.Decls = pc.Decls.Decls
	}
	if pc.Stmts != nil {
		for _, x := range pc.Stmts.List {
			d.roots = append(d.roots, x)
		}
		c.Stmts = pc.Stmts.List
	}
	d.imports = imports
	d.info = tc.Draft(fset, c, func(name string) string {
		if p, ok := imports[name]; ok {
			return p
		}
		return prelude.StandardPackage(name) // imported when the cell runs
	})
	return d
}

// offset is p's byte offset in the checked text, or -1.
func (d *draft) offset(p token.Pos) int {
	if !p.IsValid() {
		return -1
	}
	pos := d.fset.Position(p)
	switch {
	case pos.Line < 1:
		return -1
	case pos.Line > len(d.lines): // the closing brace the engine adds
		return d.size
	}
	return d.lines[pos.Line-1] + pos.Column - 1
}

// exprAt is the outermost expression spanning exactly [start, end).
func (d *draft) exprAt(start, end int) ast.Expr {
	var found ast.Expr
	for _, r := range d.roots {
		ast.Inspect(r, func(n ast.Node) bool {
			if found != nil || n == nil {
				return false
			}
			s, e := d.offset(n.Pos()), d.offset(n.End())
			if s > start || e < end {
				return false
			}
			if x, ok := n.(ast.Expr); ok && s == start && e == end {
				found = x
				return false
			}
			return true
		})
	}
	return found
}

// scopeAt is the innermost scope holding byte offset off.
func (d *draft) scopeAt(off int) *types.Scope {
	var best *types.Scope
	bestLen := -1
	for _, s := range d.info.Scopes {
		start, end := d.offset(s.Pos()), d.offset(s.End())
		if start < 0 || end < 0 || off < start || off > end {
			continue
		}
		if bestLen < 0 || end-start < bestLen {
			best, bestLen = s, end-start
		}
	}
	if best == nil {
		return d.info.Pkg.Scope()
	}
	return best
}

// qualifier writes a package by its name, the cells' own by none.
func qualifier(p *types.Package) string {
	if p == nil || p.Path() == "main" {
		return ""
	}
	return p.Name()
}

func typeString(t types.Type) string { return types.TypeString(t, qualifier) }

// objectString writes obj as a declaration; a method with its receiver,
// as Go declares it.
func objectString(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			return "func (" + typeString(sig.Recv().Type()) + ") " + fn.Name() + strings.TrimPrefix(typeString(sig), "func")
		}
	}
	return types.ObjectString(obj, qualifier)
}
