package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The refusals: constructs reported in Go's words, or refused with what to
// write instead, before the interpreter sees them. They change nothing, so
// they run first.

// statements: a cell's statements are a function's body whose return
// ends the cell (cellReturns), so a return with values there is refused as
// Go refuses one in func main, and so is a return in the body of a loop
// over a function iterator among them (its body becomes a function the
// iterator calls); an assignment whose counts differ is reported in Go's
// words (yaegi v0.16.1 stumbles on it in its global analysis,
// interp/gta.go, with a message about its own internals or none).
var statements = Pass{
	Name:     "statements",
	Run:      runStatements,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil), (*ast.AssignStmt)(nil)},
	Snippets: []string{"errors_go_words"},
}

func runStatements(c *Cell) {
	for _, b := range c.TopLevel() {
		var funcRanges []ast.Node
		ast.Inspect(b, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.RangeStmt:
				if _, ok := typeOf(c, x.X).(*types.Signature); ok {
					funcRanges = append(funcRanges, x.Body)
				}
			case *ast.ReturnStmt:
				switch {
				case len(x.Results) > 0:
					c.Fail(x.Pos(), "too many return values: a cell's statements end with a return without values")
				case slices.ContainsFunc(funcRanges, func(r ast.Node) bool { return within(x.Pos(), r) }):
					c.Fail(x.Pos(), "return in a loop over a function iterator among a cell's statements: set a variable and break instead")
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 && len(x.Lhs) > 1 {
					switch x.Rhs[0].(type) {
					case *ast.CallExpr, *ast.IndexExpr, *ast.TypeAssertExpr, *ast.UnaryExpr:
					default:
						c.Fail(x.Pos(), "assignment mismatch: %d variables but 1 value", len(x.Lhs))
					}
				} else if len(x.Rhs) > 1 && len(x.Lhs) != len(x.Rhs) {
					c.Fail(x.Pos(), "assignment mismatch: %d variables but %d values", len(x.Lhs), len(x.Rhs))
				}
			}
			return c.err == nil
		})
	}
}

func typeOf(c *Cell, e ast.Expr) types.Type {
	if t := c.Types.TypeOf(e); t != nil {
		return t.Underlying()
	}
	return nil
}

// cellReturns: a return among a cell's statements ends the cell, as one
// in func main ends the program: it raises grundyrt.Return(), which the
// engine takes for the cell's end (the top-level defers run, nothing is
// reported). yaegi v0.16.1 compiles a cell's statements at its top level,
// where a return is refused.
var cellReturns = Pass{
	Name:     "cellreturns",
	Run:      runCellReturns,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"cell_return"},
}

func runCellReturns(c *Cell) {
	for _, b := range c.TopLevel() {
		applyIn(b, func(cur Cursor) bool {
			if r, ok := cur.Node().(*ast.ReturnStmt); ok && cur.TopLevel() {
				cur.Replace(&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTReturn, r.Pos()), Lparen: r.Pos(), Rparen: r.End()}})
			}
			return true
		})
	}
}

// spreadArgs: f(g()) where g's results do not fit f's parameters, f and g
// both native: yaegi v0.16.1's own message names neither (it reports the
// mismatch inside its call wrapper), so the call is reported here.
var spreadArgs = Pass{
	Name:     "spreadargs",
	Run:      runSpreadArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"multivalue_args_library"},
}

func runSpreadArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || c.err != nil {
			return true
		}
		g, ok := call.Args[0].(*ast.CallExpr)
		if !ok {
			return true
		}
		outs, ok := c.Types.TypeOf(g).(*types.Tuple)
		if !ok || outs.Len() < 2 {
			return true
		}
		fn := c.callee(call)
		gf := c.callee(g)
		if fn == nil || gf == nil || fn.Pkg() == nil || gf.Pkg() == nil || fn.Pkg().Path() == "main" || gf.Pkg().Path() == "main" {
			return true
		}
		sig := fn.Type().(*types.Signature)
		n := sig.Params().Len()
		if outs.Len() < n-1 || outs.Len() < n && !sig.Variadic() || outs.Len() > n && !sig.Variadic() {
			c.Fail(g.Pos(), "wrong number of arguments in call to %s: %s returns %d values, %s takes %d", ExprString(call.Fun), ExprString(g.Fun), outs.Len(), ExprString(call.Fun), n)
			return true
		}
		for i := range outs.Len() {
			p := paramType(sig, i, false)
			if t := outs.At(i).Type(); p != nil && !types.AssignableTo(t, p) {
				c.Fail(g.Pos(), "cannot use %s (value of type %s) as %s value in argument to %s (assign its results to variables first)",
					ExprString(g), types.TypeString(t, pkgName), types.TypeString(p, pkgName), ExprString(call.Fun))
				return true
			}
		}
		return true
	})
}

// constantError reports whether a message of the oracle is Go's verdict
// on a constant: a value that overflows or is truncated in its type (var
// b int8 = 200, int8(1) << 7, uint8(256), x := 1 << 100), a constant
// division by zero, a negative, huge or non-integer shift, an operation
// whose exact result is too large, a constant index out of range. yaegi v0.16.1 let int8(1) << 7 through as
// -128 and said "constant definition loop" of const c int8 = 1000; the
// rest in words of its own ("-1 overflows uint").
func constantError(msg string) bool {
	switch {
	case strings.HasSuffix(msg, " (overflows)"), strings.HasSuffix(msg, " (truncated)"):
		return true
	case strings.Contains(msg, " overflows ") && strings.Contains(msg, "constant"):
		return true // "int8(1) << 7 (constant 128 of type int8) overflows int8", "constant 256 overflows uint8"
	case strings.HasPrefix(msg, "constant ") && strings.HasSuffix(msg, " overflow"):
		return true // "constant multiplication overflow"
	case msg == "invalid operation: division by zero",
		strings.HasPrefix(msg, "invalid operation: negative shift count "),
		strings.Contains(msg, "invalid shift count "),
		strings.HasPrefix(msg, "invalid argument: index ") && (strings.Contains(msg, " out of bounds ") || strings.HasSuffix(msg, " must not be negative")),
		strings.HasPrefix(msg, "invalid slice indices: "),
		strings.HasPrefix(msg, "invalid operation: shifted operand ") && strings.HasSuffix(msg, " must be integer"),
		strings.HasPrefix(msg, "cannot convert ") && strings.Contains(msg, " constant) to type "):
		return true
	}
	return false
}

// pkgName qualifies types by package name, as Go's messages do.
func pkgName(p *types.Package) string { return p.Name() }

// typeErrors: errors the type oracle finds that yaegi v0.16.1 would let
// through, reported in Go's words before anything runs. A value of the
// wrong type passed to a native function reached reflect's Call, which
// panicked ("reflect: cannot use string as type color.Color in Call")
// after the cell's earlier statements had run; "x := 5; x := 6" in one
// cell was taken for the session's redeclaration of x, which only a later
// cell may make; an undefined name was found only after the cell's
// declarations had replaced the session's (so a cell that failed to
// compile had redefined its functions); "n := strconv.Atoi(s)" kept the
// number and dropped the error. Only these kinds are taken from the oracle: its other
// errors include what the session allows and Go would not (a trailing
// expression "is not used").
var typeErrors = Pass{
	Name:     "typeerrors",
	Run:      runTypeErrors,
	Snippets: []string{"errors_go_words_types", "errors_go_words_constants"},
}

func runTypeErrors(c *Cell) {
	byPos := map[token.Pos]string{}
	for _, err := range c.Types.Errors {
		if te, ok := err.(types.Error); ok {
			byPos[te.Pos] = te.Msg
		}
	}
	if len(byPos) == 0 {
		return
	}
	var first *types.Error
	for _, err := range c.Types.Errors {
		if te, ok := err.(types.Error); ok && constantError(te.Msg) && (first == nil || te.Pos < first.Pos) {
			first = &te
		}
	}
	if first != nil {
		c.Fail(first.Pos, "%s", first.Msg)
		return
	}
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "main" {
				return true
			}
			for _, a := range n.Args {
				if _, tuple := c.Types.TypeOf(a).(*types.Tuple); tuple {
					continue // f(g()): spreadArgs says what to write
				}
				if msg := byPos[a.Pos()]; strings.HasPrefix(msg, "cannot use ") && strings.Contains(msg, " in argument to ") {
					c.Fail(a.Pos(), "%s", msg)
					return false
				}
			}
		case *ast.Ident:
			// An undefined name: the cell cannot compile, and yaegi
			// would find out only after compiling the cell's
			// declarations, which would then replace the session's.
			if msg := byPos[n.Pos()]; msg == "undefined: "+n.Name {
				c.Fail(n.Pos(), "%s%s", msg, prelude.PackageHint(n.Name))
				return false
			}
		case *ast.AssignStmt:
			// (A top-level x := v may already be x = v, its variable
			// declared with the session's.)
			if msg := byPos[n.TokPos]; strings.HasPrefix(msg, "no new variables") {
				c.Fail(n.TokPos, "%s", msg)
				return false
			}
			// n := strconv.Atoi(s): yaegi takes the first result and
			// drops the error.
			if msg := byPos[n.Rhs[0].Pos()]; strings.HasPrefix(msg, "assignment mismatch: ") {
				c.Fail(n.Rhs[0].Pos(), "%s", msg)
				return false
			}
		}
		return true
	})
}

// selfTypes: a type that refers to itself other than through a named
// struct: type stateFn func(*lexer) stateFn (the state-machine idiom),
// type Imp []Imp (an impartial game as the list of its options), type
// Tree map[string]Tree, type L []*L. yaegi v0.16.1 builds a reflect type
// for each such type, and reflect cannot make a function, slice, map,
// pointer or channel type that contains itself: its compiler fails with
// "interface conversion: reflect.Type is nil" or a nil dereference at no
// position (interp/type.go, refType), or recurses without end (through an
// anonymous struct, or a generic type's instance). A named struct breaks
// the cycle (yaegi builds one in two steps), so the declaration is
// refused with the struct wrapper that runs. A struct's fields have their
// own limits: see selfStruct.
var selfTypes = Pass{
	Name:     "selftypes",
	Run:      runSelfTypes,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"recursive_func_type_refused", "recursive_slice_type_refused", "recursive_struct_field_refused", "recursive_struct_instance_refused", "embedded_self_refused"},
}

func runSelfTypes(c *Cell) {
	// Types declared in functions too: yaegi builds those the same way.
	var roots []ast.Node
	if c.Decls != nil {
		roots = append(roots, c.Decls)
	}
	if c.Stmts != nil {
		roots = append(roots, c.Stmts)
	}
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || c.err != nil {
				return c.err == nil
			}
			selfType(c, ts)
			return false
		})
	}
}

func selfType(c *Cell, ts *ast.TypeSpec) {
	tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
	if !ok || tn.IsAlias() {
		return
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return
	}
	if st, isStruct := named.Underlying().(*types.Struct); isStruct {
		if selfEmbed(c, named, st); c.err == nil {
			selfStruct(c, named, st)
		}
		return
	}
	if !reachesSelf(named.Underlying(), named, map[types.Type]bool{}) {
		return
	}
	name := ts.Name.Name
	head := name
	if ts.TypeParams != nil {
		head += "[" + strings.TrimSuffix(strings.TrimPrefix(ExprString(&ast.FuncType{Params: ts.TypeParams}), "func("), ")") + "]"
	}
	if _, isFunc := named.Underlying().(*types.Signature); isFunc {
		if selfFunc(named) {
			return // declared as a struct (selfFuncs)
		}
		if obj := named.Obj(); obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope() {
			c.Fail(ts.Name.Pos(), "type %s refers to itself through a function type, which this interpreter cannot build in a function; declare it at a cell's top level, where the engine declares it for the interpreter, or wrap the function in a struct: type %s struct{ f %s }", name, head, ExprString(ts.Type))
			return
		}
		c.Fail(ts.Name.Pos(), "type %s refers to itself through a function type, which this interpreter cannot build; wrap the function in a struct: type %s struct{ f %s }", name, head, ExprString(ts.Type))
		return
	}
	c.Fail(ts.Name.Pos(), "type %s refers to itself through %s, which this interpreter cannot build; wrap it in a struct: type %s struct{ v %s }", name, ExprString(ts.Type), head, ExprString(ts.Type))
}

// reachesSelf reports whether the type t mentions target (or, for a
// generic type, an instance of it) through function types, pointers,
// containers, anonymous structs and the cell's other types of those
// kinds; not through a named struct, which the interpreter builds in two
// steps.
func reachesSelf(t types.Type, target *types.Named, seen map[types.Type]bool) bool {
	return reaches(t, func(n *types.Named) bool { return n == target || n.Origin() == target.Origin() }, seen)
}

// reaches reports whether the type t mentions a named type match accepts,
// walking as reachesSelf does.
func reaches(t types.Type, match func(*types.Named) bool, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if match(t) {
			return true
		}
		if _, isStruct := t.Underlying().(*types.Struct); !isStruct && typecheck.IsCellType(t) {
			return reaches(t.Underlying(), match, seen)
		}
	case *types.Alias:
		return reaches(types.Unalias(t), match, seen)
	case *types.Signature:
		for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tu.Len() {
				if reaches(tu.At(i).Type(), match, seen) {
					return true
				}
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if reaches(t.Field(i).Type(), match, seen) {
				return true
			}
		}
	case *types.Pointer:
		return reaches(t.Elem(), match, seen)
	case *types.Slice:
		return reaches(t.Elem(), match, seen)
	case *types.Array:
		return reaches(t.Elem(), match, seen)
	case *types.Map:
		return reaches(t.Key(), match, seen) || reaches(t.Elem(), match, seen)
	case *types.Chan:
		return reaches(t.Elem(), match, seen)
	}
	return false
}

// pkgNameDecls: a type the cell declares at top level under the name of
// a package the session imports for its cells (type games []string,
// while grundy's games package is games). yaegi v0.16.1 keeps a file's
// imports in the package scope under "name/file" and refuses a type
// declared there under that name (interp/gta.go:349), with "games
// redeclared in this block", which a cell declaring games once cannot
// make sense of; the
// session's cells share one file, so the import cannot be left out for
// one cell. Refused with the name's package and what to write instead (a
// variable or constant of that name works); a function of that name is
// renamed instead (pkgNameFuncs), as a type's name is printed.
var pkgNameDecls = Pass{
	Name:     "pkgnamedecls",
	Run:      runPkgNameDecls,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"type_named_like_package_refused"},
}

func runPkgNameDecls(c *Cell) {
	for _, ts := range c.typeSpecs() {
		if c.Types.IsPackage(ts.Name.Name) {
			id := ts.Name
			c.Fail(id.Pos(), "type %s: %s is the name of a package this session imports (%s), which this interpreter keeps beside the cells' declarations; give the type another name (%s)", id.Name, id.Name, c.Types.PackagePath(id.Name), otherName(id.Name))
			return
		}
	}
}

// typeSpecs are the type specs of the cell's declarations.
func (c *Cell) typeSpecs() []*ast.TypeSpec {
	if c.Decls == nil {
		return nil
	}
	var out []*ast.TypeSpec
	for _, d := range c.Decls.Decls {
		if gd, ok := d.(*ast.GenDecl); ok {
			for _, sp := range gd.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					out = append(out, ts)
				}
			}
		}
	}
	return out
}

// basicGenerics: a generic type declared on a basic type (type ModInt[M
// Modulus] uint64, type F[T any] int). yaegi v0.16.1 makes each instance
// of it the basic type itself, with the methods of the first instance
// made: a String method of F[string] was then called for every int the
// session printed (fmt.Println(3, len(s)) printed "F F"), ModInt[P7]'s
// methods computed with the first instance's modulus (Pow gave 729 where
// Go gives 1), and F[int](3) in an any was an int (x.(int) true),
// silently. Refused at the declaration, with the struct that runs: type
// F[T any] struct{ V int }. (A generic type on an array, a slice, a map,
// a function or a struct keeps its instances apart.)
var basicGenerics = Pass{
	Name:     "basicgenerics",
	Run:      runBasicGenerics,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"generic_basic_type_refused"},
}

func runBasicGenerics(c *Cell) {
	for _, ts := range c.typeSpecs() {
		tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
		if !ok || ts.TypeParams == nil || ts.Assign.IsValid() {
			continue
		}
		b, ok := tn.Type().Underlying().(*types.Basic)
		if !ok {
			continue
		}
		var params []string
		for _, f := range ts.TypeParams.List {
			var names []string
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
			params = append(params, strings.Join(names, ", ")+" "+ExprString(f.Type))
		}
		decl := ts.Name.Name + "[" + strings.Join(params, ", ") + "]"
		c.Fail(ts.Name.Pos(), "type %s %s: this interpreter makes each instance of a generic type on a basic type the %s type itself (%s's methods would be called for every %s, and each instance would use the first one's type arguments); declare it as a struct: type %s struct{ V %s }",
			decl, b.Name(), b.Name(), ts.Name.Name, b.Name(), decl, b.Name())
		return
	}
}

// otherName is a name to suggest instead of a package's: capitalized, or
// with a suffix when that changes nothing.
func otherName(name string) string {
	if up := strings.ToUpper(name[:1]) + name[1:]; up != name {
		return up
	}
	return name + "T"
}
