package engine

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"log"
	"maps"
	"os"
	"path"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"grundy/engine/cell"
	"grundy/engine/compat"
	"grundy/engine/display"
	"grundy/engine/prelude"
	"grundy/engine/prelude/grundyrt"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"
	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// Interp is one interpreter session: a yaegi interpreter with the library
// preloaded, plus what the engine remembers of the cells run so far
// (declarations, for redefinition and the tooling).
type Interp struct {
	mu   sync.Mutex // one cell at a time
	yi   *interp.Interpreter
	fset *token.FileSet
	io   *stdio
	name string // file name in positions ("cell", or a script's name)
	args []string

	pkgs           map[string]string          // name a cell uses -> import path
	globals        map[string]string          // top-level names declared by cells -> "func", "var", "const", "type" or "import"
	funcs          map[string]*funcDecl       // "f" or "T.m" -> latest declaration
	copies         map[string]compat.Copy     // the copies of generic functions cells declared
	cellCopiesMade map[string]cellCopy        // the typed copies cells declared (typedcopies.go)
	typeEpoch      int                        // how many cells declared types or methods (see cellCopies)
	compositeSeq   int                        // the hidden composite types declared (see hideComposites)
	escaped        map[string]bool            // types on basic types without methods put in interfaces (compat.Session.Escaped)
	keepsYield     bool                       // a cell declared an iterator keeping its yield (compat.Session.KeepsYield)
	nestedGlobals  map[string]bool            // compat.Session.NestedGlobals
	literalAsserts map[string]string          // compat.Session.LiteralAsserts
	broken         map[string]bool            // methods whose cell failed, by key (failedcells.go)
	types          map[string]*ast.TypeSpec   // type name -> its declaration as compiled
	declared       map[string]string          // the types the printer knows, as declared to it (see declareTypes)
	declareSeq     int                        // names the variables that declare them
	imports        map[string]string          // imports cells asked for: name -> path
	rt             *runtimeState              // what native helpers report back
	intr           atomic.Pointer[cellStop]   // stops the running cell's sleeps and library calls
	running        atomic.Pointer[watchdog]   // the running cell's run, while it runs
	session        string                     // this session's number in the process, and
	runs           atomic.Uint64              // its runs of the interpreter, for their goroutines' label (deadlock.go)
	exits          atomic.Int32               // os.Exit calls of the running cell not reported yet (see awaitExits)
	wake           wakeups                    // the timers cells made, which may wake a blocked goroutine
	passes         []compat.Pass              // the compatibility passes cells go through
	tc             *typecheck.Session         // the type oracle's view of the session
	info           *typecheck.Info            // the running cell's types, as checked before rewriting
	instances      map[string]*types.Named    // generic struct instances told to the printer (declareInstances)
	instancesMade  map[string]bool            // instances of generic struct types made first (makeInstances)
	instanceTags   map[string]string          // the names makeInstances wrote into instances' tags
	namedRuntime   map[string]bool            // instances named apart while another was made, by Go's runtime names (see makeTagged)
	madeTypes      map[string]*types.Named    // the instances makeInstances made, by name (for rebuild)
	pending        []ast.Decl                 // the running cell's declarations while they compile (see funcDecl)
	templates      map[string][]*types.Named  // the instances generic functions make with their type parameters (see instanceTemplates)
	pinned         map[string]bool            // instances whose tags the running cell writes as they are (compat.Cell.Pinned)
	pinnedGenerics map[string]bool            // generic types whose instances' tags stay as structNames wrote them
	notes          []unshownNote              // the running cell's notes on values it drops
	closures       map[string]map[string]bool // variables holding function literals -> names they use (closurenotes.go)
	// cellClosures: the variables the running cell assigns.
	cellClosures map[string]bool
	// promoted: the selectors of promoted methods the passes wrote
	// through embedded fields (see unpromote).
	promoted map[*ast.SelectorExpr]compat.Promoted
	// cellSrcs: the text of the running cell's functions to replay
	// (replay.go), by key; replaying: the earlier ones it compiles again.
	cellSrcs map[string]funcSource
	// typeSrcs: the text of the cells' generic types, by name (see
	// laterMethodTypes).
	typeSrcs map[string]funcSource
	// instancesSeen: the instances of generic types with methods the
	// cells have had, by name (see newInstances).
	instancesSeen map[string]bool
	replaying     map[string]bool
	// cellGenerics: the text of the running cell's generic functions, by
	// name, for typed copies (typedcopies.go).
	cellGenerics map[string]funcSource
	// cellTexts: the text of the running cell's functions and methods, by
	// key (funcDecl.text).
	cellTexts map[string]funcSource
	closed    bool
}

// funcDecl is a function or method as last compiled, with the top-level
// names it refers to, so that redefining one of those recompiles it.
type funcDecl struct {
	decl *ast.FuncDecl
	refs map[string]bool
	// varTypes are the types of the session's variables it was compiled
	// with (where the oracle knew them).
	varTypes map[string]types.Type
	// src: its text, when a later cell's types may change its rewriting
	// (see replay.go).
	src funcSource
	// generic: a generic function's text, for typed copies of it
	// (typedcopies.go).
	generic funcSource
	// text: its text as its cell wrote it, for the oracle to check it
	// again (constbreaks.go).
	text funcSource
}

// usesVar reports whether fd was compiled with a variable name of type t
// (of any type, where a type is unknown).
func (fd *funcDecl) usesVar(name string, t types.Type) bool {
	if !fd.refs[name] {
		return false
	}
	old := fd.varTypes[name]
	return t == nil || old == nil || types.Identical(old, t)
}

// Options configure a session.
type Options struct {
	// Name is the file name errors are reported against ("cell" if empty).
	Name string
	// Args are os.Args as cells see them.
	Args []string
}

// New starts an interpreter session with the library preloaded.
func New() (Session, error) { return NewInterp(Options{}) }

// NewInterp starts a session with options.
func NewInterp(opt Options) (*Interp, error) {
	io, err := newStdio()
	if err != nil {
		return nil, fmt.Errorf("engine: creating output pipes: %v", err)
	}
	name := opt.Name
	if name == "" {
		name = "cell"
	}
	args := opt.Args
	if args == nil {
		args = []string{name}
	}
	it := &Interp{
		args:     args,
		io:       io,
		name:     name,
		pkgs:     map[string]string{},
		globals:  map[string]string{},
		funcs:    map[string]*funcDecl{},
		closures: map[string]map[string]bool{},
		types:    map[string]*ast.TypeSpec{},
		imports:  map[string]string{},
		rt:       &runtimeState{},
		session:  strconv.FormatUint(sessions.Add(1), 10),
	}
	it.passes = compat.Passes
	it.tc = typecheck.NewSession(typeUniverse(), func() map[string]string { return it.pkgs })
	if err := it.load(); err != nil {
		io.close()
		return nil, err
	}
	return it, nil
}

// load creates the interpreter and makes the symbol tables and the prelude
// available.
func (it *Interp) load() error {
	it.yi = interp.New(interp.Options{
		Stdin:  it.io.stdin,
		Stdout: it.io.outW,
		Stderr: it.io.interpStderr,
		Args:   it.args,
		// os.Getenv, LookupEnv and Environ read a copy of the engine's
		// environment, as a Go program reads its own (yaegi's sandbox
		// gave cells an empty one: HOME and PATH were ""); Setenv
		// changes the copy.
		Env: os.Environ(),
	})
	it.fset = it.yi.FileSet()
	it.pkgs = map[string]string{}
	it.declared = map[string]string{}
	it.instancesMade = map[string]bool{}
	it.instanceTags = map[string]string{}
	it.namedRuntime = map[string]bool{}
	it.madeTypes = map[string]*types.Named{}
	it.pinnedGenerics = map[string]bool{}
	if err := it.yi.Use(stdlibExports()); err != nil {
		return fmt.Errorf("engine: loading the standard library: %v", err)
	}
	if err := it.yi.Use(symbols.Symbols); err != nil {
		return fmt.Errorf("engine: loading the grundy library: %v", err)
	}
	// Interpreted os.Stdout/os.Stderr are the capture pipes (yaegi only
	// redirects fmt and log), os.Stdin asks the frontend for a line.
	it.rt.it = it
	it.rt.types = grundyrt.NewTypes()
	// A recovered panic's frames are not the stack of the next one.
	it.rt.types.OnRecover = func() { it.io.interpStderr.take() }
	var stdin io.Reader = it.io.stdin
	errW := it.io.errW
	outW := cellStdout{it.io} // (fmt.Print* follow a cell's os.Stdout = f, as Go's do)
	rt := grundyrt.Table(it.rt, it.rt.types)
	exports := interp.Exports{
		"fmt/fmt":          fmtSymbols(outW, it.io.stdin),
		prelude.RuntimeKey: rt,
	}
	maps.Copy(exports, it.timerSymbols())
	if err := it.yi.Use(exports); err != nil {
		return err
	}
	// A Use with fmt in it resets os.Stdout to the interpreter's stdout,
	// and log's functions to a logger of yaegi's (not the one log.Default
	// returns), so os and log come after, on their own.
	if err := it.yi.Use(interp.Exports{
		"log/log": logSymbols(errW),
		"os/os": {
			"Stdin":  reflect.ValueOf(&stdin).Elem(),
			"Stdout": reflect.ValueOf(&it.io.cellStdout).Elem(),
			"Stderr": reflect.ValueOf(&it.io.cellStderr).Elem(),
			// os.Exit would end the kernel: it stops the cell instead.
			"Exit": reflect.ValueOf(func(code int) { it.exits.Add(1); panic(exitCode(code)) }),
		},
	}); err != nil {
		return err
	}
	if err := it.yi.Use(fmtPrintSymbols(outW, rt[prelude.RTFmtWrapped])); err != nil {
		return err
	}
	if err := it.yi.Use(composedWrappers()); err != nil {
		return err
	}
	// Not with fmt above: yaegi replaces flag.CommandLine whenever fmt is.
	if err := it.yi.Use(interp.Exports{"flag/flag": flagSymbols(it.args, errW)}); err != nil {
		return err
	}
	if it.intr.Load() == nil {
		it.intr.Store(newCellStop())
	}
	if err := it.loadPrelude(); err != nil {
		return fmt.Errorf("engine: prelude: %v", err)
	}
	// yaegi compiles channel operations that its stop (an interrupt, a
	// deadlock) can end only once it has run code with a context; before,
	// a session's first cell waiting on a channel could only be ended
	// with its process.
	if _, err := it.yi.EvalWithContext(context.Background(), ""); err != nil {
		return fmt.Errorf("engine: %v", err)
	}
	return nil
}

// Close ends the session.
func (it *Interp) Close() error {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.closed {
		return nil
	}
	it.closed = true
	it.io.close()
	return nil
}

// Execute runs one cell.
func (it *Interp) Execute(ctx context.Context, code string, out Output) (res Result, err error) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.closed {
		return Result{}, &EvalError{Name: "SessionClosed", Value: "the session is closed; restart the kernel"}
	}
	if out == nil {
		out = discardOutput{}
	}
	// The cell writes through cellOut, which keeps what it wrote so that
	// the progress bars (written to out directly) can go when it ends.
	var cellOut Output = out
	transient := newTransientOutput(out)
	if transient != nil {
		cellOut = transient
	}
	it.renewCellStop()
	it.io.attach(cellOut)
	it.io.renewCellFiles()
	restoreDisplay := display.Install(sinkFor(cellOut, it.io))
	bar := newProgressBar(out)
	bar.flush = it.io.flush
	restoreProgress := progress.Install(it.libraryContext(), bar)
	it.rt.beginCell()
	defer func() {
		restoreProgress()
		it.io.flush()
		transient.end(bar, err != nil)
		restoreDisplay()
		it.io.stdin.reset()
		it.io.attach(goroutineOutput{out})
	}()
	res, err = it.execute(ctx, code)
	if ee, ok := err.(*EvalError); ok && ee.Name == "CompileError" {
		it.unhideNames(ee)
		err = it.undefinedMember(ee)
	}
	res, err = it.runDeferred(res, err)
	if err == nil {
		it.io.flush()
		for _, note := range it.notes {
			if !note.trail || res.Value == nil {
				cellOut.Stderr(note.text + "\n")
			}
		}
	}
	it.notes = nil
	if err != nil && ctx.Err() != nil {
		// An interrupted library call returns its cancellation as an
		// error value, which the cell may show: it is still an interrupt.
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Name != "Interrupted" {
			err = &EvalError{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted", err.Error()}}
		}
	}
	if err != nil {
		var ee *EvalError
		if !errors.As(err, &ee) {
			err = &EvalError{Name: "Error", Value: firstLine(err.Error()), Traceback: []string{err.Error()}}
		} else if m := undefinedName.FindStringSubmatch(ee.Value); m != nil && ee.Name == "CompileError" {
			if h := prelude.PackageHint(m[1]); h != "" {
				ee.Value += h
				if len(ee.Traceback) > 0 {
					ee.Traceback[0] += h
				}
			}
		}
	}
	return res, err
}

func (it *Interp) execute(ctx context.Context, code string) (_ Result, err error) {
	pc, err := it.prepare(ctx, code)
	if err != nil {
		return Result{}, err
	}
	defer func() { it.info = nil }()
	restore := it.symbolsBefore(pc)
	defer func() {
		if ee, ok := err.(*EvalError); ok && ee.Name == "CompileError" {
			restore() // (see failedcells.go)
		}
	}()
	if pc.Decls != nil && it.changesTypes(pc.Decls) {
		// yaegi cannot change a type or a method in place: start a new
		// interpreter with the new definitions (and the cells'
		// imports), then run the cell there.
		declared, err := it.rebuild(pc.Decls)
		if err != nil {
			return Result{}, err
		}
		if pc, err = it.prepare(ctx, code); err != nil {
			return Result{}, err
		}
		// The new interpreter has the cell's variables: declared again,
		// they would be new ones that its methods do not use. (Prepared
		// again, the cell may declare nothing: the typed copies it
		// declared, the new interpreter has.)
		if pc.Decls != nil {
			pc.Decls.Decls = slices.DeleteFunc(pc.Decls.Decls, func(d ast.Decl) bool {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					return false
				}
				for _, sp := range gd.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						if !declared[id.Name] {
							return false
						}
					}
				}
				return true
			})
		}
	}
	if len(pc.before) > 0 {
		if _, err := it.compileRun(ctx, &ast.BlockStmt{List: pc.before}); err != nil {
			return Result{}, err
		}
	}
	if pc.Decls != nil {
		if err := it.runDecls(ctx, pc.Decls, pc.first, restore); err != nil {
			it.noteBrokenMethods(pc.Decls)
			return Result{}, err
		}
	}
	if pc.Stmts == nil {
		if err := it.unnamedAsserted(pc); err != nil {
			return Result{}, err
		}
		if pc.Decls != nil {
			// (The instances its functions make: a function of a
			// cell of declarations only returning &FieldError[int]{...}
			// as an error gave errors.Is no Unwrap to call.)
			it.makeInstances(ctx, pc.Decls.Package, false, nil)
			it.declareInstances(ctx, pc.Decls.Package)
		}
		it.tc.Commit(it.info)
		return Result{}, nil
	}
	it.makeInstances(ctx, pc.Stmts.Pos(), false, nil)
	if err := it.unnamedAsserted(pc); err != nil {
		return Result{}, err
	}
	it.declareInstances(ctx, pc.Stmts.Pos())
	return it.runStmts(ctx, pc)
}

// prepare parses a cell, imports what it needs, types it and rewrites it
// for the interpreter: everything before the first compilation.
func (it *Interp) prepare(ctx context.Context, code string) (_ *parsedCell, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = preparePanic(r)
		}
	}()
	parsed, err := cell.Parse(it.fset, it.name, code)
	if err != nil {
		e := compileError(err)
		if strings.HasSuffix(e.Value, ": expected 1 expression") {
			// A notebook user's x, y to show both values.
			e.Value += " (to show several values, print them: fmt.Println(x, y))"
			e.Traceback[0] = e.Value
		}
		return nil, e
	}
	names := it.reflectNames(parsed.Imports)
	if parsed.Decls != nil {
		rewriteTypeFor(parsed.Decls, names)
	}
	if parsed.Stmts != nil {
		rewriteTypeFor(parsed.Stmts, names)
	}
	parsed.Hoist(it.usesGeneric(genericFuncs(parsed.Decls)), it.usedByFuncs)
	pc := &parsedCell{Cell: parsed}
	replayed := it.replay(pc, false)
	added := it.laterMethodTypes(pc)
	it.autoImport(pc)
	if err := it.checkUnavailable(pc); err != nil {
		return nil, err
	}
	if pc.Imports != nil {
		if err := it.runImports(ctx, pc.Imports); err != nil {
			return nil, err
		}
	}
	it.check(pc)
	if it.newInstances(pc) && !replayed && it.replay(pc, true) && len(pc.replayed) > 0 {
		it.check(pc)
	}
	if pc.dropFailedReplays(it.info.Errors) {
		it.check(pc)
	}
	if err := it.constBreaks(pc); err != nil {
		return nil, err
	}
	if err := it.brokenCall(); err != nil {
		return nil, err
	}
	if err := it.genericBodyError(pc); err != nil {
		return nil, err
	}
	if err := it.missingMethodError(); err != nil {
		return nil, err
	}
	it.noteSources(pc)
	it.cellCopies(pc)
	it.hideComposites(pc) // (in the copies too)
	it.notes = it.unshownNotes(pc)
	it.noteClosures(pc)
	if pc.Trail != nil {
		pc.show = trailShowOf(it.info.TypeOf(pc.Trail.X))
		if !wantsShow(pc.Trail.X) {
			// (Before the passes, which may write the call otherwise.)
			pc.show = showNone
		}
		if tuple, ok := it.info.TypeOf(pc.Trail.X).(*types.Tuple); ok {
			pc.results = tuple.Len()
		}
	}
	cc := &compat.Cell{Cell: pc.Cell, Fset: it.fset, Types: it.info, Session: compatSession{it}}
	if err := compat.Rewrite(cc, it.passes); err != nil {
		msg := err.Error()
		return nil, &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
	}
	dropAdded(pc, added)
	if it.copies == nil {
		it.copies = map[string]compat.Copy{}
	}
	maps.Copy(it.copies, cc.Copies)
	it.dropUnchangedReplays(pc)
	pc.before = cc.Before
	pc.collected = cc.TrailCollected
	pc.first = cc.First
	pc.named = cc.NamedInstances
	it.pinned = cc.Pinned
	if pc.Decls != nil {
		// And those the passes gave methods (embedMethods' forwarders).
		for _, name := range compat.GenericFirst(pc.Decls.Decls) {
			if !slices.Contains(pc.first, name) {
				pc.first = append(pc.first, name)
			}
		}
	}
	if len(cc.AssertSources) > 0 {
		it.rt.types.NoteAssertSources(cc.AssertSources)
	}
	it.keepsYield = it.keepsYield || cc.KeepsYield
	if len(cc.NestedGlobals) > 0 {
		if it.nestedGlobals == nil {
			it.nestedGlobals = map[string]bool{}
		}
		maps.Copy(it.nestedGlobals, cc.NestedGlobals)
	}
	if len(cc.Promoted) > 0 {
		if it.promoted == nil {
			it.promoted = map[*ast.SelectorExpr]compat.Promoted{}
		}
		maps.Copy(it.promoted, cc.Promoted)
	}
	if len(cc.LiteralAsserts) > 0 {
		if it.literalAsserts == nil {
			it.literalAsserts = map[string]string{}
		}
		maps.Copy(it.literalAsserts, cc.LiteralAsserts)
	}
	if len(cc.Escaped) > 0 {
		if it.escaped == nil {
			it.escaped = map[string]bool{}
		}
		maps.Copy(it.escaped, cc.Escaped)
	}
	debugLog("GRUNDY_DEBUG_REWRITE", func(w io.Writer) { // each cell as the passes left it
		for _, s := range cc.Before {
			fmt.Fprintln(w, compat.ExprString(s))
		}
		for _, d := range cc.Insts {
			fmt.Fprintln(w, compat.ExprString(d))
		}
		for _, root := range cc.Roots() {
			fmt.Fprintln(w, compat.ExprString(root))
		}
	})
	// Copies of generic functions and instance aliases: compiled with the
	// declarations (they may use them), or before the statements. They go
	// after the cell's types and their methods, and before the rest: yaegi
	// types a package variable where it meets it, and an alias it has not
	// met yet has no type there ("nil reflect type"); and it makes an
	// instance of a generic type where it first meets it, with the methods
	// it has met by then (an alias of List[Pair[string, int]] before List's
	// methods made an instance without any).
	if pc.Decls != nil {
		at := 0
		for i, d := range pc.Decls.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.TYPE {
					at = i + 1
				}
			case *ast.FuncDecl:
				if d.Recv != nil {
					at = i + 1
				}
			}
		}
		pc.Decls.Decls = slices.Concat(pc.Decls.Decls[:at:at], cc.Insts, pc.Decls.Decls[at:])
	} else {
		pc.insts = cc.Insts
	}
	return pc, nil
}

// preparePanic is the cell's error when preparing it panicked (in the
// type checker or a compatibility pass): a bug of the engine's, which
// would otherwise end the engine process and the session with it.
// Nothing of the cell has run, so the session goes on.
func preparePanic(r any) *EvalError {
	if os.Getenv("GRUNDY_DEBUG") != "" {
		os.Stderr.Write(debug.Stack())
	}
	msg := fmt.Sprintf("the engine failed while preparing this cell, before any of it ran (%v): this is a bug in grundy; the session is as it was, so rewriting the cell's unusual construct may get past it", r)
	return &EvalError{Name: "InternalError", Value: msg, Traceback: []string{"InternalError: " + msg}}
}

// usedByFuncs reports whether a function or method of an earlier cell
// refers to name.
func (it *Interp) usedByFuncs(name string) bool {
	for _, fd := range it.funcs {
		if fd.refs[name] {
			return true
		}
	}
	return false
}

// compatSession is what the compatibility passes may ask of the session.
type compatSession struct{ it *Interp }

func (s compatSession) Copies() map[string]compat.Copy { return s.it.copies }

func (s compatSession) Escaped() map[string]bool { return s.it.escaped }

func (s compatSession) KeepsYield() bool { return s.it.keepsYield }

func (s compatSession) NestedGlobals() map[string]bool { return s.it.nestedGlobals }

func (s compatSession) LiteralAsserts() map[string]string { return s.it.literalAsserts }

func (s compatSession) Instances() map[string]*types.Named { return s.it.instances }

func (s compatSession) InstanceTag(name string) string {
	if g, ok := strings.CutPrefix(name, compat.PinnedGeneric); ok {
		for inst, tag := range s.it.instanceTags {
			if strings.HasPrefix(inst, g+"[") {
				return tag
			}
		}
		return ""
	}
	return s.it.instanceTags[name]
}

func (s compatSession) Func(key string) *ast.FuncDecl {
	if fd, ok := s.it.funcs[key]; ok {
		return fd.decl
	}
	return nil
}

func (s compatSession) Funcs() []string { return slices.Sorted(maps.Keys(s.it.funcs)) }

// runImports imports what the cell asks for; importing a package that is
// already there under the same name is a no-op.
func (it *Interp) runImports(ctx context.Context, f *ast.File) error {
	var keep []ast.Spec
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			path, name := importPathOf(is), importName(is)
			if it.pkgs[name] == path || name == "_" {
				continue
			}
			if path == "unsafe" {
				// Not the interpreter's: the oracle knows it, and
				// unsafeConsts writes what cells may use of it as
				// constants (and refuses the rest).
				it.pkgs[name], it.globals[name], it.imports[name] = path, "import", path
				continue
			}
			if _, ok := aliasPackages()[path]; ok && is.Name == nil {
				// slices, maps, cmp: the engine's own, already loaded.
				if it.pkgs[name] == path {
					continue
				}
			}
			keep = append(keep, is)
			it.pkgs[name] = path
		}
	}
	if len(keep) == 0 {
		return nil
	}
	nf := &ast.File{Name: f.Name, Decls: []ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: keep, Lparen: 1}}}
	_, err := it.compileRun(ctx, nf)
	if err == nil {
		for _, s := range keep {
			it.imported(s.(*ast.ImportSpec))
		}
		return nil
	}
	// yaegi imported the packages before the one it failed on (import
	// ("io/fs"; "syscall")), which a later cell's import of io/fs would
	// then redeclare: each is imported on its own, and those that import
	// are the session's, as a cell's declarations before a failing one are.
	var first error
	for _, s := range keep {
		is := s.(*ast.ImportSpec)
		delete(it.pkgs, importName(is))
		one := &ast.File{Name: f.Name, Decls: []ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{is}, Lparen: 1}}}
		if _, err := it.compileRun(ctx, one); err != nil && !strings.Contains(err.Error(), importName(is)+" redeclared") {
			if first == nil {
				first = err
			}
			continue
		}
		it.pkgs[importName(is)] = importPathOf(is)
		it.imported(is)
	}
	if first == nil {
		first = err
	}
	return importError(first)
}

// imported notes the import is in the session.
func (it *Interp) imported(is *ast.ImportSpec) {
	name := importName(is)
	it.globals[name] = "import"
	it.imports[name] = importPathOf(is)
}

// importPathOf is the path is imports.
func importPathOf(is *ast.ImportSpec) string { return strings.Trim(is.Path.Value, "\"`") }

// importName is the name is imports its package under.
func importName(is *ast.ImportSpec) string {
	if is.Name != nil {
		return is.Name.Name
	}
	return typecheck.ImportName(importPathOf(is))
}

// runDecls compiles the cell's functions, methods and types, then
// recompiles every earlier function that calls one that was redefined, or
// uses a variable the cell declares again.
func (it *Interp) runDecls(ctx context.Context, f *ast.File, first []string, restore func()) (err error) {
	if err := it.dropRepeats(f); err != nil {
		return err
	}
	vars := it.redeclaredVars(f)
	it.noteRetyped(vars)
	redefined := map[string]bool{}
	var mine []*ast.FuncDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			key := compat.FuncKey(d)
			if _, ok := it.funcs[key]; ok {
				redefined[d.Name.Name] = true
			}
			mine = append(mine, d)
		}
	}
	// Dependents: earlier functions that refer to a redefined name or to
	// a constant the cell declares again (compiled with its value),
	// transitively, not redefined by this cell themselves.
	consts := it.redeclaredConsts(f)
	stale := it.redefinedByCell(redefined, consts)
	defining := map[string]bool{}
	for _, d := range mine {
		defining[compat.FuncKey(d)] = true
	}
	var deps []*ast.FuncDecl
	changed := true
	seen := map[string]bool{}
	for changed {
		changed = false
		keys := make([]string, 0, len(it.funcs))
		for k := range it.funcs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fd := it.funcs[k]
			if defining[k] || seen[k] {
				continue
			}
			if it.dependsOn(fd, redefined, vars) || it.dependsOn(fd, consts, nil) {
				seen[k] = true
				deps = append(deps, fd.decl)
				if fd.decl.Recv == nil {
					redefined[fd.decl.Name.Name] = true
				}
				changed = true
			}
		}
	}
	// A cell whose declarations fail to compile leaves the interpreter's
	// half-compiled functions in place of the earlier ones it declares
	// again (a later call of f panicked "index out of range [0] with
	// length 0"): they, and their dependents, are compiled again as they
	// were, with the names the cell declares as they were (const Max =
	// 2.5 breaking limit's n + Max left limit compiled against it: a
	// call panicked). (Methods: see failedcells.go.)
	var olds []ast.Decl
	for _, d := range mine {
		if old, ok := it.funcs[compat.FuncKey(d)]; ok && d.Recv == nil {
			olds = append(olds, old.decl)
		}
	}
	for _, d := range deps {
		if d.Recv == nil {
			olds = append(olds, d)
		}
	}
	defer func() {
		if err != nil {
			err = it.brokenDependent(err, deps, mine)
		}
		if err != nil && len(olds) > 0 {
			restore()
			it.compileRun(context.Background(), &ast.File{Package: f.Package, Name: f.Name, Decls: olds})
		}
	}()
	f.Decls = append(f.Decls, declsOf(deps)...)
	it.forgetInstances(redefined)
	it.noteStaleClosures(stale)
	if len(redefined) > 0 || slices.ContainsFunc(mine, it.promotedPlace) {
		it.noteRunningGoroutines()
	}
	firsts, rest := compat.FirstDecls(f.Decls, first)
	if len(firsts) > 0 {
		if _, err := it.compileRun(ctx, &ast.File{Package: f.Package, Name: f.Name, Decls: firsts}); err != nil {
			return err
		}
		f.Decls = rest
	}
	early, rest := it.typesFirst(f.Decls, it.types)
	if len(early) > 0 {
		if _, err := it.compileRun(ctx, &ast.File{Package: f.Package, Name: f.Name, Decls: early}); err != nil {
			return err
		}
		f.Decls = rest
	}
	// (Instances of the cell's generic types with methods too, where
	// those call nothing declared after them.)
	ready := typeNamesOf(early)
	maps.Copy(ready, readyGenerics(firsts, f.Decls))
	it.pending = slices.Concat(firsts, early, f.Decls)
	it.makeInstances(ctx, f.Package, true, ready)
	it.pending = nil
	decls := f.Decls
	declared := it.declareTypes(f, early)
	if _, err := it.compileRun(ctx, f); err != nil {
		if declared == nil {
			return err
		}
		// Without the declarations to the printer: if the cell's own
		// code is at fault, its error; otherwise the printer goes
		// without (see declareTypes).
		if os.Getenv("GRUNDY_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, "grundy debug: declaring types to the printer:", err)
			for _, src := range declared {
				fmt.Fprintln(os.Stderr, "grundy debug: declared:", src)
			}
		}
		f.Decls = decls
		if _, err := it.compileRun(ctx, f); err != nil {
			return err
		}
		declared = nil
	}
	f.Decls = slices.Concat(firsts, early, f.Decls)
	it.typesDeclared(declared)
	var hoisted []ast.Stmt
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.VAR || gd.Tok == token.CONST) {
			hoisted = append(hoisted, &ast.DeclStmt{Decl: gd})
		}
	}
	it.recordVars(&ast.BlockStmt{List: hoisted})
	isDep := map[*ast.FuncDecl]bool{}
	for _, d := range deps {
		isDep[d] = true
		fd := it.funcs[compat.FuncKey(d)]
		for name, t := range vars {
			if fd.refs[name] && t != nil {
				fd.varTypes[name] = t
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !isDep[d] { // (a dependent keeps what it refers to)
				refs, varTypes := globalRefs(d, it.info)
				key := compat.FuncKey(d)
				text := it.cellTexts[key]
				if old := it.funcs[key]; text.text == "" && old != nil {
					text = old.text // (replayed from its text)
				}
				it.funcs[key] = &funcDecl{decl: d, refs: refs, varTypes: varTypes, src: it.cellSrcs[key], generic: it.cellGenerics[d.Name.Name], text: text}
			}
			if d.Recv == nil {
				it.globals[d.Name.Name] = "func"
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					it.globals[ts.Name.Name] = "type"
					it.types[ts.Name.Name] = ts
				}
			}
		}
	}
	return nil
}

// redeclaredVars lists the session's variables that f declares again,
// with their new types (nil where unknown): the functions compiled with
// the old ones are compiled again with the new, when the type is the
// same.
func (it *Interp) redeclaredVars(f *ast.File) map[string]types.Type {
	out := map[string]types.Type{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, sp := range gd.Specs {
			for _, id := range sp.(*ast.ValueSpec).Names {
				if it.globals[id.Name] == "var" {
					var t types.Type
					if obj := it.info.ObjectOf(id); obj != nil {
						t = obj.Type()
					}
					out[id.Name] = t
				}
			}
		}
	}
	return out
}

// redeclaredConsts are the constants of earlier cells that f declares
// again with another value or type, and their variables it declares as
// constants: the functions using them were compiled with their values,
// or with the variable.
func (it *Interp) redeclaredConsts(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			for _, sp := range gd.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if it.globals[id.Name] == "var" {
						out[id.Name] = true
						continue
					}
					if it.globals[id.Name] != "const" {
						continue
					}
					old, _ := it.tc.Lookup(compat.SourceName(id.Name)).(*types.Const)
					now, _ := it.info.ObjectOf(id).(*types.Const)
					if old == nil || now == nil || !types.Identical(old.Type(), now.Type()) || !constant.Compare(old.Val(), token.EQL, now.Val()) {
						out[id.Name] = true
					}
				}
			}
		}
	}
	return out
}

// dependsOn reports whether fd calls a function of funcs or uses a
// variable of vars (of the same type: see redeclaredVars).
func (it *Interp) dependsOn(fd *funcDecl, funcs map[string]bool, vars map[string]types.Type) bool {
	for name := range funcs {
		if fd.refs[name] {
			return true
		}
	}
	for name, t := range vars {
		if fd.usesVar(name, t) {
			return true
		}
	}
	return false
}

// brokenDependent words err, the interpreter's error compiling a cell's
// declarations with the earlier functions that depend on them (deps), as
// the function of deps it is in, when it is in one of them and not in
// one the cell declares (mine): "cannot apply the new definitions: func
// limit no longer compiles: ...", where it named a line of another cell.
func (it *Interp) brokenDependent(err error, deps, mine []*ast.FuncDecl) error {
	ee, ok := err.(*EvalError)
	if !ok || ee.Name != "CompileError" {
		return err
	}
	m := posPrefix.FindStringSubmatch(ee.Value)
	if m == nil {
		return err
	}
	line, col := atoi(m[1]), atoi(m[2])
	in := func(d *ast.FuncDecl) bool {
		from, to := it.fset.Position(d.Pos()), it.fset.Position(d.End())
		after := line > from.Line || line == from.Line && col >= from.Column
		before := line < to.Line || line == to.Line && col <= to.Column
		return after && before
	}
	if slices.ContainsFunc(mine, in) {
		return err
	}
	i := slices.IndexFunc(deps, in)
	if i < 0 {
		return err
	}
	return cannotApply("func " + compat.FuncKey(deps[i]) + " no longer compiles: " + m[3])
}

// cannotApply refuses a cell whose new definitions break an earlier one
// (msg says which and how); the session keeps the earlier ones.
func cannotApply(msg string) *EvalError {
	msg = "cannot apply the new definitions: " + msg
	return &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg, "(the earlier definitions stay in force)"}}
}

// noteRetyped says which functions keep a variable the cell declares
// again with another type, which they cannot be compiled with.
func (it *Interp) noteRetyped(vars map[string]types.Type) {
	for _, name := range sortedKeys(vars) {
		var users []string
		for _, key := range sortedKeys(it.funcs) {
			if fd := it.funcs[key]; fd.refs[name] && !fd.usesVar(name, vars[name]) {
				users = append(users, key)
			}
		}
		switch len(users) {
		case 0:
		case 1:
			it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %s still uses the earlier %s, of type %s: declare it again to use this one",
				users[0], name, typeName(it.funcs[users[0]].varTypes[name]))})
		default:
			it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %s still use an earlier %s: declare them again to use this one",
				strings.Join(users, ", "), name)})
		}
	}
}

func typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		return p.Name()
	})
}

// recordVars notes the globals a statement block declares.
func (it *Interp) recordVars(b *ast.BlockStmt) {
	for _, s := range b.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" && (!strings.HasPrefix(id.Name, prelude.Temp) || compat.IsRenamedVar(id.Name)) {
						it.globals[id.Name] = "var"
					}
				}
			}
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			kind := "var"
			if gd.Tok == token.CONST {
				kind = "const"
			}
			for _, sp := range gd.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for _, id := range vs.Names {
					if id.Name != "_" {
						it.globals[id.Name] = kind
					}
				}
			}
		}
	}
}

// dropRepeats removes types and methods declared again exactly as before
// (a cell run twice), and refuses changed ones: yaegi v0.16.1 keeps the
// first definition of a type and of a method, so replacing them silently
// would run stale code.
func (it *Interp) dropRepeats(f *ast.File) error {
	var keep []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				key := compat.FuncKey(d)
				if old, ok := it.funcs[key]; ok {
					if exprString(old.decl) == exprString(d) {
						continue
					}
					return &EvalError{Name: "CompileError", Value: fmt.Sprintf(
						"%s: method %s is already defined and the interpreter cannot replace a method; restart the kernel to change it, or use a function instead",
						it.fset.Position(d.Pos()), key)}
				}
			}
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				var specs []ast.Spec
				for _, sp := range d.Specs {
					ts := sp.(*ast.TypeSpec)
					if old, ok := it.types[ts.Name.Name]; ok {
						if exprString(old) == exprString(ts) {
							continue
						}
						return &EvalError{Name: "CompileError", Value: fmt.Sprintf(
							"%s: type %s is already defined and the interpreter cannot change a type; restart the kernel to change it, or use a new name",
							it.fset.Position(ts.Pos()), ts.Name.Name)}
					}
					specs = append(specs, sp)
				}
				if len(specs) == 0 {
					continue
				}
				d.Specs = specs
			}
		}
		keep = append(keep, d)
	}
	f.Decls = keep
	return nil
}

func declsOf(fs []*ast.FuncDecl) []ast.Decl {
	out := make([]ast.Decl, len(fs))
	for i, f := range fs {
		out[i] = f
	}
	return out
}

// parsedCell is a cell ready to compile: parsed and rewritten, with the
// declarations its statements need compiled first (copies of generic
// functions) when it declares nothing itself.
type parsedCell struct {
	*cell.Cell
	insts     []ast.Decl
	before    []ast.Stmt                      // compiled and run first (compat.Cell.Before)
	first     []string                        // generic types declared before the cell's other declarations (compat.GenericFirst)
	replayed  []*ast.FuncDecl                 // earlier functions compiled again (replay.go)
	show      trailShow                       // how the trailing expression is shown
	results   int                             // the trailing call's results, when several
	collected bool                            // the passes collected them in a []any (compat.Cell.TrailCollected)
	named     map[string]compat.NamedInstance // refused unless the instance is named (compat.Cell.NamedInstances)
}

// trailShow is how a cell's trailing expression is shown, as its type
// says before the cell is rewritten.
type trailShow int

const (
	showUnknown trailShow = iota // untyped: through the helpers, or not at all if that does not compile
	showNone                     // a call with no result, or one to a printing function (wantsShow)
	showNative                   // no value in it can be of a cell type: natively
	showCell                     // through the helpers that find the methods of cell types
)

// runStmts runs the statement block and shows the trailing expression.
func (it *Interp) runStmts(ctx context.Context, pc *parsedCell) (Result, error) {
	body := pc.Stmts
	if len(pc.insts) > 0 {
		f := &ast.File{Name: ast.NewIdent("main"), Package: body.Lbrace, Decls: pc.insts}
		if _, err := it.compileRun(ctx, f); err != nil {
			return Result{}, err
		}
	}
	it.recordVars(body)
	it.tc.Commit(it.info)
	list := body.List
	if len(list) == 0 {
		return Result{}, nil
	}
	var trail *ast.ExprStmt
	if pc.Trail != nil && list[len(list)-1] == ast.Stmt(pc.Trail) {
		trail = pc.Trail
	}
	return it.runBlock(ctx, body, list, trail, pc.show, pc.results, pc.collected)
}

// wantsShow: a trailing call to a printing function shows nothing even
// though it has results.
func wantsShow(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return true
	}
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return !builtinNames[f.Name] || f.Name == "len" || f.Name == "cap" || f.Name == "append" ||
			f.Name == "make" || f.Name == "new" || f.Name == "complex" || f.Name == "real" || f.Name == "imag"
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok {
			switch pkg.Name {
			case "fmt":
				return !strings.HasPrefix(f.Sel.Name, "Print") && !strings.HasPrefix(f.Sel.Name, "Fprint")
			case "log":
				return false
			}
		}
	}
	return true
}

var builtinNames = map[string]bool{"append": true, "cap": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true}

// runBlock compiles and runs statements of the cell's block; trail, when
// not nil, is the last of them and its value is shown.
func (it *Interp) runBlock(ctx context.Context, body *ast.BlockStmt, list []ast.Stmt, trail *ast.ExprStmt, show trailShow, results int, collected bool) (Result, error) {
	block := &ast.BlockStmt{Lbrace: body.Lbrace, List: list, Rbrace: body.Rbrace}
	showIdx := -1
	var orig ast.Stmt
	if trail != nil && show != showNone {
		showIdx = len(list) - 1
		later := hasCellDefers(list[:showIdx])
		fn := prelude.Show
		switch {
		case show == showNative && later:
			fn = prelude.ShowNativeAfterDefers
		case show == showNative:
			fn = prelude.ShowNative
		case later:
			fn = prelude.ShowAfterDefers
		}
		orig = list[showIdx]
		call := &ast.CallExpr{
			Fun:    ast.NewIdent(fn),
			Args:   []ast.Expr{trail.X},
			Lparen: trail.X.Pos(),
			Rparen: trail.X.End(),
		}
		if collected {
			call.Ellipsis = trail.X.End()
		} else if results > 1 && show == showCell {
			// yaegi took the results out of their boxes ((Row, error)
			// showed [1 2 3] where Go prints row3): a []any keeps them.
			call.Args, call.Ellipsis = []ast.Expr{compat.CollectedResults(trail.X, results)}, trail.X.End()
		} else if show == showCell && isFuncLitCall(trail.X) {
			// A function literal's result (the checked assertion
			// a.(Nimber) is one: compat's basedAsserts) reached the
			// helper out of its box (2 for *2); []any{x}[0] keeps it.
			pos := trail.X.Pos()
			call.Args = []ast.Expr{&ast.IndexExpr{X: &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: ast.NewIdent("any")}, Lbrace: pos, Elts: []ast.Expr{trail.X}, Rbrace: trail.X.End()},
				Lbrack: trail.X.End(), Index: &ast.BasicLit{ValuePos: trail.X.End(), Kind: token.INT, Value: "0"}, Rbrack: trail.X.End()}}
		} else if (show == showCell || show == showNative) && results <= 1 && later {
			if tv, ok := it.info.Types[trail.X]; !ok || tv.Value == nil {
				// Shown after the cell's top-level defers (ShowLater),
				// the value as it was where the cell ended: the helper's
				// argument was the variable's place (defer c.Inc(); c
				// showed {1}, Go {0}). A variable of its own keeps it.
				//
				//	func() { _grundyTrail := c; _grundyShowAfterDefers(_grundyTrail) }()
				pos := trail.X.Pos()
				v := ast.NewIdent(prelude.Trail)
				call.Args = []ast.Expr{ast.NewIdent(prelude.Trail)}
				body := &ast.BlockStmt{Lbrace: pos, Rbrace: trail.X.End(), List: []ast.Stmt{
					&ast.AssignStmt{Lhs: []ast.Expr{v}, Tok: token.DEFINE, TokPos: pos, Rhs: []ast.Expr{trail.X}},
					&ast.ExprStmt{X: call},
				}}
				lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}}, Body: body}
				list[showIdx] = &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: trail.X.End(), Rparen: trail.X.End()}}
			}
		}
		if list[showIdx] == orig {
			list[showIdx] = &ast.ExprStmt{X: call}
		}
	}
	prog, err := it.compile(block)
	if err != nil && showIdx >= 0 && show == showUnknown {
		// The oracle could not type it: perhaps a call with no value.
		// Compiling without the wrapper gives the real error otherwise.
		list[showIdx] = orig
		showIdx = -1
		prog, err = it.compile(block)
	}
	if err != nil {
		if os.Getenv("GRUNDY_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "grundy debug: failed block:\n%s\n", exprString(block))
		}
		return Result{}, err
	}
	it.markGlobalDefines(block)
	if showIdx >= 0 {
		_, call := trail.X.(*ast.CallExpr)
		it.rt.showsTrailCall(call)
	}
	if _, err := it.run(ctx, prog); err != nil {
		return Result{}, err
	}
	if showIdx < 0 {
		return Result{}, nil
	}
	return it.rt.takeResult()
}

// hasCellDefers reports whether list, a cell's top-level statements as
// rewritten, registers a top-level defer (compat's cellDefers; also from
// a function literal a pass made of a loop's body).
func hasCellDefers(list []ast.Stmt) bool {
	for _, s := range list {
		found := false
		ast.Inspect(s, func(n ast.Node) bool {
			if x, ok := n.(*ast.CallExpr); ok {
				if id, ok := x.Fun.(*ast.Ident); ok && id.Name == prelude.Defer {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// isFuncLitCall reports whether e calls a function literal.
func isFuncLitCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	_, lit := ast.Unparen(call.Fun).(*ast.FuncLit)
	return lit
}

// usesGeneric tells, before the cell is typed, which top-level variables
// must stay among the statements: yaegi v0.16.1 cannot compile a generic
// function's instance at package level (it fails, or the variable is
// silently zero). It reports whether e mentions a generic function: min,
// max, the engine's slices, maps, cmp and iter, or a generic function a
// cell declared, earlier or in this cell (names).
func (it *Interp) usesGeneric(names map[string]bool) func(ast.Node) bool {
	return func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false // compiled as a function: not at package level
			case *ast.Ident:
				if x.Name == "min" || x.Name == "max" || names[x.Name] {
					found = true
				} else if fd, ok := it.funcs[x.Name]; ok && fd.decl.Type.TypeParams != nil {
					found = true
				}
			case *ast.SelectorExpr:
				if pkg, ok := x.X.(*ast.Ident); ok && aliasPackages()[it.pkgs[pkg.Name]] {
					found = true
				}
				return !found
			}
			return !found
		})
		return found
	}
}

// genericFuncs names the generic functions a cell declares.
func genericFuncs(decls *ast.File) map[string]bool {
	names := map[string]bool{}
	if decls != nil {
		for _, d := range decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil {
				names[fd.Name.Name] = true
			}
		}
	}
	return names
}

// compileRun compiles and runs a file or block.
func (it *Interp) compileRun(ctx context.Context, n ast.Node) (reflect.Value, error) {
	prog, err := it.compile(n)
	if err != nil {
		return reflect.Value{}, err
	}
	return it.run(ctx, prog)
}

// compile turns yaegi's compile errors, including its internal panics on
// constructs it does not support, into an *EvalError.
func (it *Interp) compile(n ast.Node) (prog *interp.Program, err error) {
	prog, err = it.compileOnce(n)
	if err != nil {
		it.resizeFrame()
	}
	return prog, err
}

// resizeFrame gives the variables a failed compilation declared their
// place in yaegi's global frame, which otherwise only happens when a
// program runs: until then yaegi's Globals would panic.
func (it *Interp) resizeFrame() {
	defer func() { recover() }()
	if prog, err := it.yi.CompileAST(&ast.BlockStmt{}); err == nil {
		it.yi.Execute(prog)
	}
}

func (it *Interp) compileOnce(n ast.Node) (prog *interp.Program, err error) {
	// yaegi reports some internal failures through the standard logger
	// before panicking; the panic becomes the cell's error, so keep that
	// line out of the process's stderr.
	prevLog := log.Writer()
	log.SetOutput(quietInternal{prevLog})
	defer log.SetOutput(prevLog)
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("GRUNDY_DEBUG") != "" {
				os.Stderr.Write(debug.Stack())
			}
			prog = nil
			err = unsupportedError(fmt.Sprint(r), n, it)
		}
	}()
	it.forgetMethodInstances()
	prog, err = it.yi.CompileAST(n)
	if declaresGenericMethods(n) {
		it.keyGenericMethods()
	}
	if err != nil {
		if b, ok := n.(*ast.BlockStmt); ok && strings.Contains(err.Error(), "constant definition loop") {
			// yaegi's global analysis hides the real error; compiling the
			// statements as a function body finds it.
			if perr := it.probe(b); perr != nil {
				return nil, perr
			}
		}
		return nil, it.inGoWords(compileError(err))
	}
	return prog, nil
}

// inGoWords is e, yaegi's compile error, in the compiler's words when the
// oracle found a type error on the same line: yaegi's own speak of its
// internals (cannot use n (type intT) as type stringT in return
// argument; Go: cannot use n (variable of type int) as string value in
// return statement).
func (it *Interp) inGoWords(e *EvalError) *EvalError {
	m := posPrefix.FindStringSubmatch(e.Value)
	if m == nil {
		return e
	}
	if te := it.typeError(func(e types.Error) bool { return strconv.Itoa(e.Fset.Position(e.Pos).Line) == m[1] }); te != nil {
		te.Name = e.Name
		return te
	}
	return e
}

var (
	noSymbol      = regexp.MustCompile(`^(.*: )?package (\w+) "([^"]+)" has no symbol (\w+)$`)
	undefinedQual = regexp.MustCompile(`^(.*: )?undefined: (\w+)\.(\w+)$`)
	undefinedSel  = regexp.MustCompile(`^(.*: )?undefined selector ([\w./-]+)\.(\w+)$`)
)

// undefinedMember says "undefined: solve.Value", as Go does, where yaegi
// says that the package "has no symbol Value" or of an "undefined
// selector grundy/stdlib/solve.Value", and names the package's member the
// user may have meant.
func (it *Interp) undefinedMember(e *EvalError) *EvalError {
	var pos, pkg, path, name string
	if m := noSymbol.FindStringSubmatch(e.Value); m != nil {
		pos, pkg, path, name = m[1], m[2], m[3], m[4]
	} else if m := undefinedQual.FindStringSubmatch(e.Value); m != nil && it.pkgs[m[2]] != "" {
		pos, pkg, path, name = m[1], m[2], it.pkgs[m[2]], m[3]
	} else if m := undefinedSel.FindStringSubmatch(e.Value); m != nil {
		pos, pkg, path, name = m[1], typecheck.ImportName(m[2]), m[2], m[3]
	} else {
		return e
	}
	var names []string
	for _, syms := range it.yi.Symbols(path) {
		for n := range syms {
			names = append(names, n)
		}
	}
	msg := pos + "undefined: " + pkg + "." + name
	if near := human.Nearest(name, names); near != "" {
		msg += " (did you mean " + pkg + "." + near + "?)"
	}
	e.Value, e.Traceback = msg, []string{msg}
	return e
}

var undefinedName = regexp.MustCompile(`: undefined: (\w+)$`)

var incompleteType = regexp.MustCompile(`([^\s:]+:\d+:\d+): incomplete type (\w+)\s*$`)

// quietInternal drops yaegi's "nil type" log line and passes the rest.
type quietInternal struct{ w io.Writer }

func (q quietInternal) Write(p []byte) (int, error) {
	if t := strings.TrimSpace(string(p)); strings.HasSuffix(t, "nil type") || strings.HasSuffix(t, "nil reflect type") { // (with the standard logger's date or without)
		return len(p), nil
	}
	return q.w.Write(p)
}

// probe compiles a block as the body of a throwaway function, for its
// error message.
func (it *Interp) probe(b *ast.BlockStmt) (err error) {
	defer func() {
		if r := recover(); r != nil {
			// "pos: CFG post-order panic: pos: incomplete type x" means x
			// is undefined.
			msg := fmt.Sprint(r)
			if m := incompleteType.FindStringSubmatch(msg); m != nil {
				err = &EvalError{Name: "CompileError", Value: m[1] + ": undefined: " + m[2], Traceback: []string{m[1] + ": undefined: " + m[2]}}
				return
			}
			err = nil
		}
	}()
	fd := &ast.FuncDecl{Name: ast.NewIdent("_grundyProbe"), Type: &ast.FuncType{Func: b.Lbrace, Params: &ast.FieldList{}}, Body: b}
	f := &ast.File{Name: ast.NewIdent("main"), Package: b.Lbrace, Decls: []ast.Decl{fd}}
	if _, cerr := it.yi.CompileAST(f); cerr != nil {
		return compileError(cerr)
	}
	return nil
}

// libraryContext is what the library's long loops poll for an interrupt
// (progress.Install). It ends only once the interpreter has been told to
// stop (it.intr closes), so that a solve returning early on an interrupt
// finds the cell already stopped instead of racing on to its next
// statement; and not when the cell ends, since a goroutine the cell
// started may still be solving (go func() { t, err := solve.Values(g, n);
// ... }() in one cell, its result read in the next): a Go program's
// goroutines run on.
func (it *Interp) libraryContext() context.Context {
	if stop := it.intr.Load(); stop != nil {
		return stop.ctx
	}
	return context.Background()
}

// run executes a compiled program; cancelling ctx stops it.
func (it *Interp) run(ctx context.Context, prog *interp.Program) (v reflect.Value, err error) {
	it.io.interpStderr.take()
	if err = ctx.Err(); err == nil {
		// (yaegi would run a program started after the interrupt to its
		// end: its stop can come before the program's first step.)
		runCtx, stop := context.WithCancelCause(ctx)
		defer stop(nil)
		run := it.runs.Add(1)
		wd := it.watch(run, stop)
		it.exits.Store(0)
		it.running.Store(wd)
		pprof.Do(runCtx, pprof.Labels(cellLabel, wd.run), func(context.Context) {
			v, err = it.yi.ExecuteWithContext(runCtx, prog)
		})
		it.running.Store(nil)
		wd.stop()
		it.awaitExits()
		if cause := context.Cause(runCtx); ctx.Err() == nil && (cause == errDeadlock || cause == errGoroutinePanic) {
			if stop := it.intr.Load(); stop != nil {
				stop.close() // (the selects the engine writes wait on it: see renewCellStop)
			}
			if cause == errGoroutinePanic {
				return reflect.Value{}, wd.panicError()
			}
			if err != nil {
				return reflect.Value{}, wd.deadlockError(!wd.released())
			}
		}
	}
	if err == nil {
		return v, nil
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Wake sleeping goroutines of the cell: a top-level statement
		// blocked in time.Sleep would otherwise resume after it, once the
		// next cell's run lets the interpreter's frames go on. The stop
		// stays closed until the next cell starts, so that a goroutine
		// of this cell that reaches a sleep only now stops too.
		if stop := it.intr.Load(); stop != nil {
			stop.close()
		}
		return v, &EvalError{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		if grundyrt.IsReturn(p.Value) {
			// A return among the cell's statements: the cell ends there.
			it.io.interpStderr.take()
			return reflect.Value{}, nil
		}
		it.rt.mu.Lock()
		it.rt.panicking, it.rt.panicVal = true, grundyrt.PanicAgain(p.Value)
		it.rt.mu.Unlock()
		return v, it.panicError(p)
	}
	return v, runtimeError(err)
}

// runDeferred runs the defers of the cell's top-level statements, last
// first, as a function's defers run when it returns: after a panic too,
// which a deferred recover() then stops.
func (it *Interp) runDeferred(res Result, err error) (Result, error) {
	r := it.rt
	r.mu.Lock()
	fns := r.deferred
	r.deferred = nil
	if ee, ok := err.(*EvalError); ok && (ee.Name == "fatal error" || ee.Name == "Exit") {
		// Go ends the program there (a fatal error, os.Exit): no
		// deferred call runs.
		fns = nil
	}
	if err == nil {
		r.panicking = false
	}
	r.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		if perr := it.callDeferred(fns[i]); perr != nil {
			err = perr
		}
	}
	r.mu.Lock()
	recovered := err != nil && len(fns) > 0 && !r.panicking
	if p, ok := err.(*EvalError); ok && p.Name != "panic" {
		recovered = false
	}
	r.panicking, r.panicVal = false, nil
	r.mu.Unlock()
	if recovered {
		// A deferred recover() stopped the panic: the cell ends as a
		// function that returns, with its value if it reached it (a
		// deferred panic another defer recovered keeps it).
		res, err = Result{}, nil
	}
	if later := r.takeLater(); later != nil && err == nil {
		// The trailing values, through the interpreted helpers.
		if err = it.callDeferred(later); err == nil {
			res, err = r.takeResult()
		}
	}
	return res, err
}

// callDeferred calls one deferred function; its panic becomes the cell's.
func (it *Interp) callDeferred(f func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			it.rt.mu.Lock()
			it.rt.panicking, it.rt.panicVal = true, grundyrt.PanicAgain(v)
			it.rt.mu.Unlock()
			msg := it.panicMessage(v)
			err = &EvalError{Name: "panic", Value: msg, Traceback: []string{"panic: " + msg}}
		}
	}()
	f()
	return nil
}

// sleep is time.Sleep for cells: an interrupt ends it (by a panic that
// unwinds the interrupted code).
func (it *Interp) sleep(d time.Duration) {
	stop := it.intr.Load()
	if stop == nil {
		time.Sleep(d)
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-stop.ch:
		// The cell was interrupted: end this goroutine quietly. A panic
		// would pass the interpreted recover the engine gives a cell's
		// goroutines (yaegi skips interpreted deferred calls once it is
		// stopped) and end the process; returning would let the
		// statement after the sleep run once the next cell's run lets
		// the interpreter's frames go on.
		runtime.Goexit()
	}
}

// cellStop is closed when a cell is interrupted; the next cell gets a new
// one (renewCellStop). Its ctx, what the library polls, ends with it.
type cellStop struct {
	ch     chan struct{}
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
}

func newCellStop() *cellStop {
	ctx, cancel := context.WithCancel(context.Background())
	return &cellStop{ch: make(chan struct{}), ctx: ctx, cancel: cancel}
}

func (s *cellStop) close() {
	s.once.Do(func() {
		close(s.ch)
		s.cancel()
	})
}

// renewCellStop gives a cell that starts after an interrupt an open stop.
func (it *Interp) renewCellStop() {
	if stop := it.intr.Load(); stop != nil {
		select {
		case <-stop.ch:
			it.intr.Store(newCellStop())
		default:
		}
	}
}

// awaitExits waits a little for a goroutine's os.Exit to be reported: it
// is reported once the goroutine's deferred calls have run, and one of
// them may have let the cell end (defer close(done)).
func (it *Interp) awaitExits() {
	for i := 0; i < 500 && it.exits.Load() > 0; i++ {
		time.Sleep(time.Millisecond)
	}
}

// exitCode is the panic value os.Exit raises in a cell.
type exitCode = grundyrt.Exit

func (it *Interp) panicError(p interp.Panic) *EvalError {
	if code, ok := grundyrt.Unwrap(p.Value).(exitCode); ok {
		it.exits.Add(-1)
		it.io.interpStderr.take()
		msg := fmt.Sprintf("os.Exit(%d) stopped the cell; the session goes on", int(code))
		return &EvalError{Name: "Exit", Value: msg, Traceback: []string{msg}}
	}
	// Give the pump a moment: yaegi prints frames to stderr as it unwinds.
	stack := it.io.interpStderr.take()
	msg := it.panicMessage(p.Value)
	tb := []string{"panic: " + msg}
	if os.Getenv("GRUNDY_DEBUG") != "" {
		// The Go stack, for the engine's developers: the runtime error
		// may be the interpreter's own, interpreted frames or not.
		os.Stderr.Write(p.Stack)
	}
	if len(stack) == 1 && strings.HasPrefix(stack[0], "main (") {
		// The cell's own frame only: where the cell was entered says
		// nothing the message does not.
	} else if len(stack) > 0 {
		tb = append(tb, interpretedStack(stack)...)
	} else if p.Value != nil {
		if _, native := p.Value.(runtimeErr); native {
			// No interpreted frame: the runtime error may be the
			// interpreter's own. Its Go stack is for the engine's
			// developers, never the cell's output.
			tb = append(tb, "", "(no interpreted stack: if the code looks right, the interpreter may have failed on it; try rewriting it more plainly)")
		}
	}
	return &EvalError{Name: "panic", Value: msg, Traceback: tb}
}

// interpretedStack is how a panic's error shows the interpreted frames
// yaegi printed as it unwound: a blank line, then a heading and the
// frames.
func interpretedStack(stack []string) []string {
	lines := []string{"", "interpreted stack (innermost first; the interpreter tells where each function was entered, not the line that failed):"}
	for _, s := range stack {
		lines = append(lines, "  "+s)
	}
	return lines
}

type runtimeErr interface{ RuntimeError() }

// panicMessage is what Go prints after "panic: " for a panic's value.
func (it *Interp) panicMessage(v any) string { return it.rt.types.PanicText(v) }

func compileError(err error) *EvalError {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = e.Error()
		}
		return &EvalError{Name: "CompileError", Value: lines[0], Traceback: lines}
	}
	msg := err.Error()
	if strings.Contains(msg, "undefined type for ") {
		msg = firstLine(msg) + " (the interpreter cannot infer this type parameter: instantiate explicitly, as in f[int](...))"
	}
	return &EvalError{Name: "CompileError", Value: firstLine(msg), Traceback: strings.Split(msg, "\n")}
}

func runtimeError(err error) *EvalError {
	msg := err.Error()
	return &EvalError{Name: "Error", Value: firstLine(msg), Traceback: strings.Split(msg, "\n")}
}

var importPath = regexp.MustCompile(`import "([^"]+)"$`)

func importError(err error) *EvalError {
	var e *EvalError
	if !errors.As(err, &e) {
		e = compileError(err)
	}
	if i := strings.Index(e.Value, " error: unable to find source related to"); i >= 0 {
		head := e.Value[:i]
		m := importPath.FindStringSubmatch(head)
		var msg string
		var generic bool
		if m != nil {
			msg, generic = unavailablePackage(m[1])
		}
		if generic {
			e.Value = head + ": " + msg
		} else if m != nil && strings.HasPrefix(m[1], "grundy/") {
			e.Value = head + ": not one of grundy's packages for cells (" + strings.Join(cellPackages(), ", ") + "); the others serve the kernel and the commands"
		} else if m != nil && !strings.Contains(strings.Split(m[1], "/")[0], ".") {
			// A standard package yaegi leaves out (it has no tables for
			// packages that start processes or get around the type
			// system: os/exec, syscall, unsafe, plugin, ...).
			e.Value = head + ": this standard package is not available in cells (the interpreter leaves out os/exec, syscall, plugin and others that reach outside it)"
		} else {
			e.Value = head + ": not available; only Go's standard library and grundy's packages can be imported"
		}
		e.Traceback = []string{e.Value}
	}
	return e
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// globalRefs lists the top-level names a declaration may refer to, which
// is what recompiling needs: every identifier in it but those the oracle
// knows to be something else (a parameter, a local variable, a field, a
// method, a package, a builtin); and the types of the variables among
// them, where the oracle knows them.
//
// An identifier the oracle has no object for is one a pass wrote, and
// counts unless the declaration declares a local of that name (the
// namedResults pass's "err = nil" for a result named err: counted, a cell
// declaring err at top level was taken for one a function of an earlier
// cell uses, and refused).
func globalRefs(n ast.Node, info *typecheck.Info) (refs map[string]bool, varTypes map[string]types.Type) {
	refs, varTypes = map[string]bool{}, map[string]types.Type{}
	locals := map[string]bool{}
	if info != nil {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := info.Defs[id]; obj != nil && !topLevel(obj) {
					locals[id.Name] = true
				}
			}
			return true
		})
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name != "_" {
			// (The blank is no variable: counted, x of a cell's
			// "_, x := two()" became a package variable, which the
			// next "x, y := two()" declared again in the block.)
			obj := info.ObjectOf(id)
			if obj == nil && !locals[id.Name] || obj != nil && topLevel(obj) {
				refs[id.Name] = true
			}
			if v, isVar := obj.(*types.Var); isVar && topLevel(v) {
				varTypes[id.Name] = v.Type()
			}
		}
		return true
	})
	return refs, varTypes
}

// topLevel reports whether obj is declared at a cell's top level.
func topLevel(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Var:
		if o.IsField() {
			return false
		}
	case *types.Func:
		if o.Type().(*types.Signature).Recv() != nil {
			return false
		}
	case *types.PkgName, *types.Label, *types.Builtin, *types.Nil:
		return false
	}
	if obj.Pkg() == nil || obj.Pkg().Path() != "main" {
		return false
	}
	// In a package scope (an earlier cell's object belongs to that cell's
	// package, and to the scope of the first cell that used it).
	return obj.Parent() == nil || obj.Parent().Parent() == types.Universe
}

// discardOutput is used when Execute is given no Output.
type discardOutput struct{}

func (discardOutput) Stdout(string)                                {}
func (discardOutput) Stderr(string)                                {}
func (discardOutput) Display(Bundle, map[string]any, string, bool) {}
func (discardOutput) ClearOutput(bool)                             {}
func (discardOutput) Input(string, bool) (string, error) {
	return "", errors.New("no input available")
}

// goroutineOutput receives what goroutines of a finished cell print: it
// still goes to that cell's output (Jupyter shows it there) until the next
// cell starts.
type goroutineOutput struct{ Output }

// globalValues is yaegi's Globals, which panics (index out of range) after
// a cell failed to compile having declared variables the frame never got:
// then no values are known until the next cell runs.
func (it *Interp) globalValues() (m map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			m = map[string]reflect.Value{}
		}
	}()
	return it.yi.Globals()
}

// cellPackages are the import paths of grundy's own packages the cells
// can import (those with symbol tables, but the engine's runtime).
func cellPackages() []string {
	var out []string
	for k := range symbols.Symbols {
		p := path.Dir(k)
		if strings.HasPrefix(p, "grundy/") && !strings.HasPrefix(p, "grundy/engine/prelude") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
