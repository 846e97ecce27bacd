package engine

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
)

// declareTypes tells the session's printer (grundyrt's Types) about the
// types cells declared: how Go names each and its fields, the interpreter's
// reflect type for it, and closures calling its fmt methods. fmt then
// prints values of these types as Go does wherever it meets them, in an
// interface too, where the oracle could not say their types (see compat's
// fmtArgs). The declarations go first in the cell's file f, as
// package-level variables, so that they are made before the cell's own
// variables are initialised; a type is declared again when its methods
// change. It returns what it declared, for typesDeclared once f compiled.
func (it *Interp) declareTypes(f *ast.File, early []ast.Decl) map[string]string {
	var specs []ast.Spec
	keys := map[string]string{}
	var named []*types.Named
	for _, name := range it.typeNames(slices.Concat(early, f.Decls)) {
		n := it.namedType(name)
		if n == nil || n.TypeParams().Len() > 0 {
			continue
		}
		named = append(named, n)
		args := []string{strconv.Quote(compat.FmtDesc(n)), "(*" + name + ")(nil)"}
		args = append(args, compat.CellMethods(n, name)...)
		args = append(args, compat.CellMethodNames(n)...)
		src := fmt.Sprintf("%s.%s(%s)", prelude.Runtime, prelude.RTDeclare, strings.Join(args, ", "))
		if compat.IsHiddenComposite(n) {
			// The composite it stands for, by its box's name.
			src = fmt.Sprintf("%s.%s(%q, %q)", prelude.Runtime, prelude.RTDeclareComposite, "main."+name, compat.FmtDesc(n))
		}
		// (Keyed by where its methods are declared too: the closures
		// calling a promoted String, compiled when Dog embedding Animal
		// was declared, kept calling Animal's once a later cell declared
		// Dog's own, whose closure reads the same.)
		key := src + "\n" + methodsOf(n)
		if it.declared[name] == key {
			continue
		}
		e, err := parser.ParseExpr(src)
		if err != nil {
			if os.Getenv("GRUNDY_DEBUG") != "" {
				fmt.Fprintln(os.Stderr, "grundy debug: declaring", name, "to the printer:", err)
			}
			continue
		}
		compat.AtPos(e, f.Package)
		it.declareSeq++
		v := fmt.Sprintf("%sDeclared%d", prelude.Temp, it.declareSeq)
		specs = append(specs, &ast.ValueSpec{Names: []*ast.Ident{{Name: v, NamePos: f.Package}}, Values: []ast.Expr{e}})
		keys[name] = key
	}
	if len(specs) == 0 {
		return nil
	}
	decl := &ast.GenDecl{TokPos: f.Package, Tok: token.VAR, Lparen: f.Package, Specs: specs, Rparen: f.Package}
	f.Decls = append([]ast.Decl{decl}, f.Decls...)
	it.declareRoots(f, named, keys)
	return keys
}

// declareRoots declares a variable of each struct the interpreter must
// build its cycle from (compat.BuildRoots, and the function types
// selfFuncs declares as structs) that f declares, right after
// f's type declarations: the interpreter makes the types of package-level
// variables as it meets them, and the first struct of a cycle it makes
// decides whether it makes the cycle right (a variable before the types
// came too late: Graph, in a Declare above it, was made first).
func (it *Interp) declareRoots(f *ast.File, named []*types.Named, declaring map[string]string) {
	var specs []ast.Spec
	roots := compat.BuildRoots(named)
	for _, n := range named {
		// A function type referring to itself, a struct to the
		// interpreter (compat's selfFuncs), is built from itself too: a
		// function's signature with it and a struct of another cycle
		// (Walk(v Visitor, t *Tree)) made yaegi recurse without end.
		if compat.IsSelfFunc(n) {
			roots = append(roots, n)
		}
	}
	for _, n := range roots {
		name := n.Obj().Name()
		if _, ok := declaring[name]; !ok {
			continue
		}
		it.declareSeq++
		v := &ast.Ident{Name: fmt.Sprintf("%sBuilt%d", prelude.Temp, it.declareSeq), NamePos: f.Package}
		specs = append(specs, &ast.ValueSpec{Names: []*ast.Ident{v}, Type: &ast.StarExpr{Star: f.Package, X: &ast.Ident{Name: name, NamePos: f.Package}}})
	}
	for _, m := range compat.CycleMends(named) {
		args := []string{strconv.Quote(m.Spec)}
		mine := false
		for _, n := range m.Structs {
			_, ok := declaring[n.Obj().Name()]
			mine = mine || ok
			args = append(args, "(*"+n.Obj().Name()+")(nil)")
		}
		e, err := parser.ParseExpr(fmt.Sprintf("%s.%s(%s)", prelude.Runtime, prelude.RTMendCycle, strings.Join(args, ", ")))
		if !mine || err != nil {
			continue
		}
		compat.AtPos(e, f.Package)
		it.declareSeq++
		v := &ast.Ident{Name: fmt.Sprintf("%sMended%d", prelude.Temp, it.declareSeq), NamePos: f.Package}
		specs = append(specs, &ast.ValueSpec{Names: []*ast.Ident{v}, Values: []ast.Expr{e}})
	}
	if len(specs) == 0 {
		return
	}
	at := 0
	for i, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			at = i + 1
		}
	}
	decl := &ast.GenDecl{TokPos: f.Package, Tok: token.VAR, Lparen: f.Package, Specs: specs, Rparen: f.Package}
	f.Decls = slices.Insert(f.Decls, at, ast.Decl(decl))
}

// declareInstances tells the printer about the instances of generic
// struct types with methods, or with a cell type on a basic type, slice
// or map among their type arguments (compat.PrintedInstances), that the
// running cell's expressions have
// (Tree[int], also one a generic function made and returned, or a field
// of another instance holds), as declareTypes does of declared types: no
// cell declares an instance, and a generic method printing its own
// instances (t.Kids, a []*Tree[T], in Tree's String) hands the printer
// values only their reflect type tells (they printed as addresses). It
// runs after the cell's declarations, before its statements; a failure
// only leaves the printer without them.
func (it *Interp) declareInstances(ctx context.Context, pos token.Pos) {
	var stmts []ast.Stmt
	keys := map[string]string{}
	for _, name := range it.structInstances() {
		src, key := instanceDeclaration(name, it.instances[name])
		if it.declared[name] == key {
			continue
		}
		stmt, err := blankAt(src, pos)
		if err != nil {
			continue
		}
		stmts = append(stmts, stmt)
		keys[name] = key
	}
	if len(stmts) == 0 {
		return
	}
	if _, err := it.compileRun(ctx, &ast.BlockStmt{Lbrace: pos, List: stmts, Rbrace: pos}); err != nil {
		if os.Getenv("GRUNDY_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, "grundy debug: declaring instances to the printer:", err)
		}
		return
	}
	it.typesDeclared(keys)
}

// instanceDeclaration is the call declaring the instance n, by name, to
// the printer (its description, its pointer type and its methods), and the
// key declareInstances and declareInstance keep it under.
func instanceDeclaration(name string, n *types.Named) (src, key string) {
	// yaegi looks an instance up by name where a conversion compiles
	// and finds none ("type not found: Tree[int]"); a parameter's type
	// it instantiates (see compat's instanceConvs).
	ptr := fmt.Sprintf("func(%[1]sP *%[2]s) *%[2]s { return %[1]sP }(nil)", prelude.Temp, name)
	args := append([]string{strconv.Quote(compat.FmtDesc(n)), ptr}, compat.CellMethods(n, name)...)
	src = fmt.Sprintf("%s.%s(%s)", prelude.Runtime, prelude.RTDeclare, strings.Join(args, ", "))
	// (Keyed by where its methods are declared too: the closures
	// calling a promoted String, compiled when Dog embedding Animal
	// was declared, kept calling Animal's once a later cell declared
	// Dog's own, whose closure reads the same.)
	return src, src + "\n" + methodsOf(n)
}

// blankAt is the statement _ = src, with every node at pos, the cell's
// position: yaegi resolves an import (the runtime's) by the file a node is
// in.
func blankAt(src string, pos token.Pos) (ast.Stmt, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	compat.AtPos(e, pos)
	return &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: "_", NamePos: pos}}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{e}}, nil
}

// structInstances are the names of the instances declareInstances
// declares, sorted, with their types in it.instances: those with methods,
// and those the engine named (see makeInstances).
func (it *Interp) structInstances() []string {
	if it.info == nil || !it.declaresGenericStructs() {
		return nil
	}
	found := compat.PrintedInstances(it.info)
	if it.instances == nil {
		it.instances = map[string]*types.Named{}
	}
	names := make([]string, 0, len(found))
	for name, n := range found {
		if !compat.HasMethods(n) && it.instanceTags[name] == "" {
			// (one with a based type argument the engine could not name:
			// its reflect type is its twin's, Pair[int, string]'s, which
			// the printer would then take for it)
			continue
		}
		it.instances[name] = n
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// typesDeclared records what declareTypes declared, once it ran.
func (it *Interp) typesDeclared(keys map[string]string) {
	for name, src := range keys {
		it.declared[name] = src
	}
}

// methodsOf names the methods of *n with where each is declared (its own,
// or promoted from an embedded field: (main.Animal).String).
func methodsOf(n *types.Named) string {
	ms := types.NewMethodSet(types.NewPointer(n))
	names := make([]string, ms.Len())
	for i := range names {
		names[i] = ms.At(i).Obj().(*types.Func).FullName()
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// typeNames are the session's types (with those decls declare), by name.
func (it *Interp) typeNames(decls []ast.Decl) []string {
	names := typeNamesOf(decls)
	for name := range it.types {
		names[name] = true
	}
	return sortedKeys(names)
}

// namedType is the oracle's type a cell declared under name: the running
// cell's (a type declared in a function that compat's localTypeNames
// declared at the top by name too), else the session's.
func (it *Interp) namedType(name string) *types.Named {
	var obj types.Object
	if it.info != nil && it.info.Pkg != nil {
		obj = it.info.Pkg.Scope().Lookup(name)
		if tn := it.info.RenamedType(name); obj == nil && tn != nil {
			obj = tn
		}
	}
	if obj == nil {
		obj = it.tc.Lookup(name)
	}
	tn, ok := obj.(*types.TypeName)
	if !ok || tn.IsAlias() {
		return nil
	}
	n, _ := tn.Type().(*types.Named)
	return n
}
