package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// instanceMethods: the runtime's printer learns the methods native
// packages call (String, Error, Format, MarshalJSON, ...; see CellMethods)
// of the instances of the generic struct types cells declare. It knows a
// type's methods by its name; the engine declares each type a cell
// declares, but an instance is a type of its own, and yaegi v0.16.1 gives
// the types it builds no methods native code can see (interp/type.go,
// refType): a Pair[string, float64] made in mk[K, V] and handed out as an
// any printed {b 2.5}, where Go calls its String (b=2.5). Where the
// oracle met it (fmt.Println(p), p a Pair[string, int]) the printer was
// told, with the value; in an interface it was not.
//
// The engine declares the instances with their type arguments known that
// a cell's expressions have (declareInstances). An instance with type
// parameters (Pair[K, V]{k, v}) that a generic function or method
// converts to an interface is declared when the function runs, the
// first time for each instance (still a call into the runtime per call of
// the function: mk in a loop of 200,000 calls took 1.8 times as long when
// every function making an instance asked):
//
//	{
//		var _grundyZero Pair[K, V]
//		if grundyrt.NewInstance(_grundyZero) {
//			grundyrt.InstanceMethods("main.Pair[K,V].String", func(_grundyV Pair[K, V]) string { return _grundyV.String() }, ...)
//		}
//	}
var instanceMethods = Pass{
	Name: "instancemethods",
	Run:  runInstanceMethods,
	// (no Kinds: a cell without instances is left at once)
	Snippets: []string{"generic_instance_methods"},
}

func runInstanceMethods(c *Cell) {
	if len(c.Types.Instances) == 0 {
		return
	}
	// Instances with type parameters, converted to an interface in a
	// function: declared when the function runs.
	guards := map[*ast.BlockStmt]map[string]ast.Stmt{}
	var bodies []*ast.BlockStmt
	c.Apply(func(cur Cursor) bool {
		body := funcBody(cur.FuncNode)
		if body == nil {
			return true
		}
		for _, a := range c.assignedValues(cur, nil) {
			if !types.IsInterface(a.target) {
				continue
			}
			typeIn(c.Types.TypeOf(a.value), func(t types.Type) bool {
				n, ok := t.(*types.Named)
				if !ok || !hasTypeParam(n) {
					return false
				}
				src, ok := c.Types.TypeString(n)
				if !ok || guards[body][src] != nil {
					return false
				}
				if guard := c.instanceGuard(n, src, body.Lbrace); guard != nil {
					if guards[body] == nil {
						guards[body] = map[string]ast.Stmt{}
						bodies = append(bodies, body)
					}
					guards[body][src] = guard
				}
				return false
			})
		}
		return true
	})
	for _, body := range bodies {
		var stmts []ast.Stmt
		for _, src := range slices.Sorted(maps.Keys(guards[body])) {
			stmts = append(stmts, guards[body][src])
		}
		body.List = append(stmts, body.List...)
	}
}

// instanceGuard is the statement that declares n, an instance with type
// parameters written src, to the printer the first time a function runs
// with it; nil when n is not an instance of a cell's generic struct type
// with methods native packages call.
func (c *Cell) instanceGuard(n *types.Named, src string, pos token.Pos) ast.Stmt {
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct || !typecheck.IsCellType(n) {
		return nil
	}
	methods := CellMethods(n, src)
	if len(methods) == 0 {
		return nil
	}
	// The zero value in a variable: a literal (Pair[K, V]{}) handed to a
	// call in a method of the generic type made yaegi v0.16.1 give the
	// literal a place in another function's frame, which the instance
	// made elsewhere (Pair[string, int]{...} in a generic function) then
	// overwrote ("reflect.Set: value of type bool is not assignable to
	// type struct { ... }").
	zero := tempPrefix + "Zero"
	f, err := parser.ParseFile(token.NewFileSet(), "", fmt.Sprintf("package main\nfunc _() {\n{\nvar %s %s\nif %s.%s(%s) {\n%s.%s(%s)\n}\n}\n}",
		zero, src, prelude.Runtime, prelude.RTNewInstance, zero, prelude.Runtime, prelude.RTInstanceMethods, strings.Join(methods, ", ")), parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	return AtPos(f.Decls[0].(*ast.FuncDecl).Body.List[0], pos)
}
