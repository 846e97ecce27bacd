// Package compat is the engine's compatibility layer: an ordered list of
// small passes over a cell's syntax tree, each working around one defect of
// the interpreter, yaegi v0.16.1, so that the cell computes what Go
// computes. Each pass says in its doc comment which yaegi behaviour it
// works around (with the issue or the source location where known), has
// golden tests (testdata/golden/PASS/*.txt: cell in, rewritten Go out) and
// names the snippets of the engine's corpus that fail without it; the
// engine's tests check that each pass is still needed, so a pass can be
// deleted the day the interpreter no longer needs it.
//
// Passes ask every type question of the type oracle (package typecheck),
// which typed the cell before the first pass ran: a pass asks about the
// cell's own nodes, and code a pass writes has no types. A construct the
// interpreter truly cannot run is refused before it runs, with a one-line
// message naming the construct and what to write instead.
package compat

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"strings"

	"grundy/engine/cell"
	"grundy/engine/typecheck"
)

// Pass rewrites a cell to work around one interpreter defect.
type Pass struct {
	Name string
	Run  func(c *Cell)
	// Kinds are the nodes the pass acts on (typed nils: (*ast.GoStmt)(nil));
	// a cell without any is not walked for it. None: the pass always runs.
	Kinds []ast.Node
	// Snippets are the engine's snippets (testdata/snippets/NAME.go.txt)
	// that go wrong without this pass.
	Snippets []string
	// After names the passes whose work this one finishes: its golden
	// tests run them first.
	After []string
}

// Passes is the order in which passes run: checks that refuse first, then
// passes that rewrite expressions in place, then passes that change the
// structure of statements (which would hide expressions from the others).
var Passes = []Pass{
	statements,
	laterMethods,
	typeErrors,
	labelNames, // after typeErrors, whose messages name the labels as written
	iterTypeNames,
	localTypeNames, // before the passes that write types
	localAliases,
	initOrder,
	unsafeConsts,
	funcPointers,
	reflectMethods,
	shadowedMethods,
	embeddedLists,
	shadowedTypes,
	predeclaredNames,
	anonEmbed,
	localTypes,
	nilCompares,
	funcTypeDefs,
	aliasRecvs,
	arrayLens,
	selfTypes,
	selfFuncs,
	appendNils,
	selfGenerics,
	instanceOrder,
	basicGenerics,
	nestedInstances,
	comparableInstances,
	namedEmpty,
	methodTwins,
	pkgNameDecls,
	basedTypes,
	nativeBoxes,
	typeParamRenames,
	nativeIfaceTypes,
	nativeFuncValues, // before the passes that help native calls
	genericReturns,
	instanceMethods, // before the passes that write the instances' syntax anew
	assertSources,
	pkgNameFuncs,
	shadowVars,
	builtinShadows,
	mainFunc,
	earlierReads,
	printBuiltins,
	keyedOperands,
	constValues,
	constCompares, // before pkgConsts writes the operands
	pkgConsts,
	complexConsts,
	deleteKeys,
	constQuotients,
	runeConsts,
	zeroDivisors,
	numConvs,
	float32Consts,
	indexDefines,
	contextConsts,
	ptrArrayAddrs,
	ptrArrayLens,
	elidedAddrs,
	litAddrs, // after elidedAddrs, whose &T{...} it makes new each time
	dirChans,
	parens,
	operatorIfaces,
	convertedTupleArgs, // before the passes that convert arguments, which see its single ones
	tupleIfaces,        // before callStores, which sees its single values
	callStores,         // before bounds, which checks an index before the statement
	tupleStores,        // before bounds, which checks each store's operands before it
	floatShifts,        // before bounds copies an index
	shiftOperands,      // before bounds copies an index ([]uint64{1 << n}[0])
	bounds,
	constBytes, // after bounds, which would check its slice expression
	cellReturns,
	shifts,
	uintptrSteps,
	genericAliases,
	constraintTerms,
	instanceArgs,
	spreadArgs,
	nativeVariadics,
	nativeIfaceArgs,
	reflectedArgs,
	cellIfaceValues,
	instanceStores, // before instanceConvs, which passes its conversions on
	funcIfaceArgs,
	loggerFatal,
	variadicSlices,
	hiddenFields,
	ifaceKeys,
	ifaceCopies,
	structNames,
	selfSeqs,
	methodExprs,
	funcConvs,
	structConvs,
	instanceConvs,
	mixedCompares,
	genericFuncValues,
	returnFuncs,
	funcIfaceValues,
	funcRecvs,
	nestedSigs,
	methodValues,
	errorValues,
	errorAssert,
	ifaceAsserts,
	nilAsserts,
	ifaceCompare,
	errorsIsAs,
	typeSwitches,
	fmtArgs,
	jsonArgs,
	xmlArgs,
	gobIfaces,
	templateMethods,
	panicValues,
	reflectNames,
	reflectFields,
	basedAsserts,
	structAsserts,
	instanceAsserts,
	promotedAsserts,
	displayCalls,
	structAssign,
	tupleNil,
	paramConv,
	paramLits,
	literalCalls, // before genericMethods, which refuses what it leaves
	genericMethods,
	minMax,
	newExprs,
	pkgVars,
	varInits,
	reusedDefines,
	rangeFunc,
	rangePtrArrays,
	rangeInt,
	rangeStrings,
	rangeChans,
	switchTags, // before the passes that rewrite a switch's cases
	switchConsts,
	emptyTypeCases,
	multiTypeCases,
	switchDefaults,
	switchCases,
	switchInits,
	loopVars,
	blankRangeKeys, // after loopVars, which would copy the key each time round
	genericVars,
	varTypeNames,
	ptrInstanceVars,
	instanceLits,
	selects,
	clauseLabels,
	funcDefers,
	deferPanics,
	goroutines,
	cellDefers,
	recvValues,
	commaOkZero,
	commaOk,
	blankReceive,
	loopTuples,     // after commaOkZero
	mapIndexAssign, // before funcScope, which puts its tuple definitions at top level in functions
	funcScope,
	embedIface,
	embedMethods,
	nativeBased, // before boxBasic, which sees the type on its underlying type
	boxBasic,
	labeledReturn,
	namedResults,
	methodOrder,
	aliasOrder,
	recoverOrder,
	returnBuiltins,
	tupleAssigns,
	unnamedParams,
	switchBinds, // after the passes that rewrite type switches, which read a binding as the cell's
	operandOrder,
	nativeResults,
	tupleArgs,
	genericElements,
	typeArgs,
	genericStd, // after typeArgs, which writes the type arguments of its calls
	loopClosures,
	newInstances, // after the passes writing new(T)
	namedResultCalls,
	genericLoopVars,  // after the passes writing var declarations
	forInits,         // the passes before may write such loops
	returnedFuncs,    // after the passes writing returned values
	loopVersions,     // copies loops as the passes before wrote them
	genericSelfCalls, // last: copies generic functions as the passes before wrote them
}

// Session is what passes need of the engine beyond the cell.
type Session interface {
	// Func is the declaration of a function or method ("f", "T.m") that an
	// earlier cell declared, as compiled; nil if there is none.
	Func(key string) *ast.FuncDecl
	// Funcs are the keys of the functions and methods earlier cells
	// declared, for Func.
	Funcs() []string
	// Copies are the copies of generic functions earlier cells declared.
	Copies() map[string]Copy
	// Escaped names the types on a basic type without methods whose
	// values earlier cells put in an interface (see basedEscapes).
	Escaped() map[string]bool
	// KeepsYield reports whether an earlier cell declared a function
	// iterator that keeps its yield function (see keptYield).
	KeepsYield() bool
	// NestedGlobals are the names earlier cells' top-level loops, ifs and
	// switches declared in their nested scopes, which the interpreter
	// keeps as globals (see funcScope).
	NestedGlobals() map[string]bool
	// LiteralAsserts are the types (basic, composite) that function literals of
	// earlier cells, whose values may outlive their cell, assert to bare
	// (see literalAsserts), each with one such assertion written out.
	LiteralAsserts() map[string]string
	// Instances are the instances of generic struct types with methods
	// (see StructInstances), or that the engine named in their tags (see
	// InstanceTag), earlier cells named, by name.
	Instances() map[string]*types.Named
	// InstanceTag is the name the engine wrote into the tag of the
	// instance name (Pair[Nim, string]: main.Pair[main.Nim,string], see
	// engine.makeInstances); "" where the tag says where its type
	// arguments are, as structNames wrote it. For PinnedGeneric+a generic
	// type's name, one of its instances' (any), or "".
	InstanceTag(name string) string
}

// Copy is a copy of a generic function with its type arguments written
// in.
type Copy struct {
	Func     string
	TypeArgs []ast.Expr
}

// Cell is one cell being made runnable: the parsed cell, rewritten in
// place by the passes, and what they may consult.
type Cell struct {
	*cell.Cell
	Fset    *token.FileSet
	Types   *typecheck.Info // the cell's types, checked before the first pass
	Session Session
	// Copies are the copies of generic functions the passes declared in
	// Insts (see instanceCopy), by name: the session keeps them, for a
	// cell that declares the function again to declare them again.
	Copies map[string]Copy
	// Escaped names the types on a basic type without methods whose
	// values this cell puts in an interface: the session keeps them (see
	// basedEscapes).
	Escaped map[string]bool
	// TrailCollected: the passes made the cell's trailing call with
	// several results a []any of them, for the show helper to take
	// spread (see shownResults).
	TrailCollected bool
	// KeepsYield: the cell declares a function iterator that keeps its
	// yield function (see keptYield); the session keeps it.
	KeepsYield bool
	// NestedGlobals are the names this cell's top-level loops, ifs and
	// switches declare in their nested scopes, which the interpreter keeps
	// as globals: the session keeps them for later cells (see funcScope).
	NestedGlobals map[string]bool
	// LiteralAsserts are the types (basic, composite) this cell's function literals
	// whose values may outlive the cell assert to bare, each with one such
	// assertion written out: the session keeps them (see literalAsserts).
	LiteralAsserts map[string]string
	// AssertSources are, by a type one-value assertions assert to, the
	// static type of the values they assert ("" for several), as Go's
	// runtime names them (see assertSources).
	AssertSources map[string]string
	// Promoted are the selectors of promoted methods the passes wrote
	// through the embedded fields they are promoted by (see Promoted):
	// the session keeps them, for a later cell declaring the method.
	Promoted map[*ast.SelectorExpr]Promoted
	// Insts are declarations the rewritten code needs compiled before the
	// cell's statements (copies of generic functions).
	Insts []ast.Decl
	// Before are top-level statements compiled and run before anything
	// else of the cell, while the names the cell declares again still
	// stand for the earlier cells' variables (see earlierReads).
	Before []ast.Stmt
	// First are the generic types the engine declares, with their
	// methods, before the cell's other declarations (see GenericFirst).
	First []string
	// Pinned are the instances, by name, whose tag the cell's rewritten
	// code writes as structNames wrote it (instanceTag): the engine leaves
	// them so; and the generic types (PinnedGeneric+name) all of whose
	// instances it leaves so.
	Pinned map[string]bool
	// NamedInstances are the refusals of assertions (and type switch
	// cases) to instances of generic struct types, and of putting such
	// instances with a based type argument in an empty interface, by the
	// instance's name, that stand unless the engine names the instance in
	// its tag before the cell's statements (see twinInstances and
	// unnamedStores): the interpreter tells such an instance from its
	// twins (Pair[Heap, int] and Pair[int, int], type Heap int) only by
	// that name.
	NamedInstances map[string]NamedInstance

	err          *Error
	tmp          int
	renamed      map[string]string // type parameters and local types typeParamRenames and localTypeNames renamed: new name -> the cell's
	declared     map[string]bool   // names of declarations the passes added to Insts
	based        []*types.Named    // the based cell types (see basedCellTypes), once asked
	basedDone    bool
	keptDone     bool                       // KeepsYield was asked
	cycles       map[string]bool            // generic functions calling themselves through others (see genericCycle)
	instances    []*types.Named             // see structInstances, once asked
	nonNil       map[types.Object]bool      // the pointer variables that cannot be nil (see mayBeNil), once asked
	loopVersions []*loopVersion             // the loops the bounds pass checks in a copy, inner ones first
	addrTaken    map[*types.Var]bool        // the variables whose address the cell takes (see addressTaken)
	callees      map[ast.Expr]string        // what the function values passes wrote for method values and expressions call, for relays (see deferredCallee)
	reachable    map[types.Object]bool      // the variables every function may reach (see reachable), as asked
	boundRecvs   map[*ast.CallExpr]ast.Expr // the method values methodValues bound, and their receivers (see boundMethodValue)
}

// NamedInstance is a refusal that stands unless the engine names an
// instance (see Cell.NamedInstances), and the instance's name as Go's
// runtime writes it.
type NamedInstance struct {
	Err     *Error
	Runtime string
}

// Error is a construct a pass refuses, with what to write instead.
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string {
	if !e.Pos.IsValid() {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Rewrite runs the passes over the cell in order; it stops at the first
// construct a pass refuses.
func Rewrite(c *Cell, passes []Pass) error {
	kinds := c.kinds()
	for _, p := range passes {
		if !p.applies(kinds) {
			continue
		}
		p.Run(c)
		if c.err != nil {
			return c.err
		}
		kinds = c.kinds() // the pass may have written new kinds of node
	}
	return nil
}

// kinds lists the kinds of node in the cell.
func (c *Cell) kinds() map[reflect.Type]bool {
	k := map[reflect.Type]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if n != nil {
				k[reflect.TypeOf(n)] = true
			}
			return true
		})
	}
	return k
}

func (p Pass) applies(kinds map[reflect.Type]bool) bool {
	for _, n := range p.Kinds {
		if kinds[reflect.TypeOf(n)] {
			return true
		}
	}
	return len(p.Kinds) == 0
}

// Fail refuses the cell at pos (the first refusal wins).
func (c *Cell) Fail(pos token.Pos, format string, args ...any) {
	if c.err != nil {
		return
	}
	c.err = c.errorAt(pos, format, args...)
}

// typedCopyName matches the name of a typed copy (see CellCopies), the
// function's name in its first group.
var typedCopyName = regexp.MustCompile(tempPrefix + `Typed_(\w+?)_\d+\b`)

// errorAt is the refusal Fail reports.
func (c *Cell) errorAt(pos token.Pos, format string, args ...any) *Error {
	e := &Error{Msg: fmt.Sprintf(format, args...)}
	for to, from := range c.renamed { // the message speaks of the cell's code
		e.Msg = strings.ReplaceAll(e.Msg, to, from)
	}
	e.Msg = strings.ReplaceAll(e.Msg, shadowVarPrefix, "")
	e.Msg = typedCopyName.ReplaceAllString(e.Msg, "$1") // (a call of a typed copy: CellCopies)
	if pos.IsValid() && c.Fset != nil {
		e.Pos = c.Fset.Position(pos)
	}
	return e
}

// Temp is a fresh name for a variable the passes introduce.
func (c *Cell) Temp(kind string) string {
	c.tmp++
	return tempPrefix + kind + itoa(c.tmp)
}

// TopLevel lists the cell's blocks of top-level statements (none, or its
// statements).
func (c *Cell) TopLevel() []*ast.BlockStmt {
	if c.Cell == nil || c.Stmts == nil {
		return nil
	}
	return []*ast.BlockStmt{c.Stmts}
}

// eachTopLevel replaces each of the cell's top-level statements with what
// f makes of it.
func (c *Cell) eachTopLevel(f func(ast.Stmt) []ast.Stmt) {
	for _, b := range c.TopLevel() {
		var out []ast.Stmt
		for _, s := range b.List {
			out = append(out, f(s)...)
		}
		b.List = out
	}
}

// Roots lists every part of the cell a pass may rewrite.
func (c *Cell) Roots() []ast.Node {
	var out []ast.Node
	if c.Cell == nil {
		return nil
	}
	if c.Decls != nil {
		out = append(out, c.Decls)
	}
	for _, b := range c.TopLevel() {
		out = append(out, b)
	}
	return out
}

func itoa(n int) string { return fmt.Sprint(n) }
