package grundyrt

import (
	"errors"
	"go/ast"
	"go/parser"
	htmltemplate "html/template"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"text/template/parse"
	"unsafe"
)

// Templates and the methods of cell types. yaegi v0.16.1 gives the types
// cells declare no methods reflect can call (interp/type.go, refType), and
// text/template finds methods by reflect: {{.Greeting}} on a cell type
// fails with "can't evaluate field Greeting", after the template has
// written what came before. No native value can carry the method, so a
// template that names a method of the data's cell types is stopped before
// it writes anything, saying what to write instead.

// TextTemplate is t, checked against methods ("Greeting main.User", one per
// line: the exported methods of the cell types in the data's type that
// it cannot call), and calling the methods calls gives closures of (see
// templateMethodCalls).
func TextTemplate(t *template.Template, methods string, calls ...any) *template.Template {
	if t != nil {
		funcs := textFuncs(reflect.ValueOf(t))
		var trees []*parse.Tree
		for _, x := range t.Templates() {
			checkTemplate(x.Tree, methods, funcs)
			trees = append(trees, x.Tree)
		}
		if fm := templateMethodCalls(trees, calls); len(fm) > 0 {
			t.Funcs(fm)
		}
	}
	return t
}

// HTMLTemplate is TextTemplate for html/template.
func HTMLTemplate(t *htmltemplate.Template, methods string, calls ...any) *htmltemplate.Template {
	if t != nil {
		funcs := map[string]reflect.Value{}
		if tv := reflect.ValueOf(t).Elem(); tv.Kind() == reflect.Struct {
			if text := tv.FieldByName("text"); text.IsValid() && text.Kind() == reflect.Pointer && !text.IsNil() {
				funcs = textFuncs(text)
			}
		}
		var trees []*parse.Tree
		for _, x := range t.Templates() {
			checkTemplate(x.Tree, methods, funcs)
			trees = append(trees, x.Tree)
		}
		if fm := templateMethodCalls(trees, calls); len(fm) > 0 {
			t.Funcs(fm)
		}
	}
	return t
}

// textFuncs are the functions a text/template (a *template.Template in
// t) was given (its unexported execFuncs), for their result types.
func textFuncs(t reflect.Value) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	if t.Kind() != reflect.Pointer || t.IsNil() {
		return out
	}
	common := t.Elem().FieldByName("common")
	if !common.IsValid() || common.Kind() != reflect.Pointer || common.IsNil() {
		return out
	}
	ef := common.Elem().FieldByName("execFuncs")
	if !ef.IsValid() || ef.Kind() != reflect.Map || ef.Type().Elem() != reflect.TypeFor[reflect.Value]() {
		return out
	}
	m := reflect.NewAt(ef.Type(), unsafe.Pointer(ef.UnsafeAddr())).Elem()
	for it := m.MapRange(); it.Next(); {
		if fn, ok := it.Value().Interface().(reflect.Value); ok && fn.Kind() == reflect.Func {
			out[it.Key().String()] = fn
		}
	}
	return out
}

// templateChecks is what compat's templateChecks found in the data's type.
type templateChecks struct {
	methods map[string]string // method name → the cell type that has it
	prints  map[string]string // field name ("." for dot, "[map]" for a map's key) → a cell type with String, Error or Format its values may hold
	box     string            // an interface with methods a cell declared, in the data
	keys    string            // the data's type, a map keyed by a cell type (map[main.Outcome]int)
	values  map[string]string // a cell type on a basic type, a slice... in the data (main.Level) → its reflect kind (int)
	plain   map[string]bool   // the fields and methods of the data whose values cannot be one of values'
}

func parseChecks(lines string) templateChecks {
	c := templateChecks{methods: map[string]string{}, prints: map[string]string{}, values: map[string]string{}, plain: map[string]bool{}}
	for _, l := range strings.Split(lines, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "print":
			c.prints[f[1]] = f[2]
		case len(f) == 2 && f[0] == "box":
			c.box = f[1]
		case len(f) == 2 && f[0] == "keys":
			c.keys = f[1]
		case len(f) == 3 && f[0] == "value":
			c.values[f[1]] = f[2]
		case len(f) == 2 && f[0] == "plain":
			c.plain[f[1]] = true
		case len(f) == 2:
			c.methods[f[0]] = f[1]
		}
	}
	return c
}

func checkTemplate(tree *parse.Tree, lines string, funcs map[string]reflect.Value) {
	if tree == nil || tree.Root == nil {
		return
	}
	c := parseChecks(lines)
	templateIdents(tree.Root, func(id string) {
		if typ, ok := c.methods[id]; ok {
			panic("template: {{." + id + "}} calls the method " + id + " of " + typ +
				", which templates cannot call in this engine; pass its result instead (a field, or a map entry)")
		}
	})
	if c.keys != "" {
		dataFields(tree.Root, func(n parse.Node) {
			panic("template: {{" + n.String() + "}} looks a key up by name in the data, a " + c.keys + ": Go's templates do so only in a map keyed by string " +
				"(here they fail with \"can't evaluate field\"), and this engine would find the key; key the map by string, or range over it")
		})
	}
	if c.box != "" && looksIntoData(tree.Root) {
		panic("template: the data holds " + c.box + " values (an interface a cell declares), which templates cannot look into in this engine; " +
			"pass the values in a []any or in fields of their own types")
	}
	if len(c.values) > 0 {
		checkFuncArgs(tree.Root, funcs, c.values, c.plain)
	}
	if len(c.prints) > 0 {
		templatePrints(tree.Root, funcs, func(n parse.Node, field string) {
			typ, ok := c.prints[field]
			if !ok && field != "." && field != "[key]" {
				typ, ok = c.prints["[map]"] // a key of a map
			}
			if ok {
				panic("template: {{" + n.String() + "}} prints a " + typ + " with its String, Error or Format method, which templates cannot call in this engine; " +
					"pass its text instead (a string field set to fmt.Sprint(v))")
			}
		})
	}
}

// checkFuncArgs stops a template that hands a function of its FuncMap an
// argument other than a constant (the data's values may be among them)
// where the function takes an interface, or a type of the kind of one of values' types (the
// data's types on a basic type, a slice...: main.Level, type Level int):
// templates read the data by reflect, which gives such a value the
// interpreter's reflect type, its underlying type's, so a func(v any)
// got an int (%T said int, not main.Level) and a func(h Heap) took a
// Level where Go's template fails ("wrong type for value"), silently.
//
// A field or method the data's types declare only with types that hold
// no such value (plain: {{printf "%.1f" .W}} with W a float64 beside Lvl
// Level) is handed over as it is.
func checkFuncArgs(root parse.Node, funcs map[string]reflect.Value, values map[string]string, plain map[string]bool) {
	walkTemplate(root, func(n parse.Node) {
		cmd, ok := n.(*parse.CommandNode)
		if !ok || len(cmd.Args) < 2 {
			return
		}
		id, ok := cmd.Args[0].(*parse.IdentifierNode)
		if !ok {
			return
		}
		fn, ok := funcs[id.Ident]
		if !ok {
			return
		}
		ft := fn.Type()
		for i, arg := range cmd.Args[1:] {
			switch a := arg.(type) {
			case *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode:
				continue // (not the data's)
			case *parse.FieldNode:
				if plain[a.Ident[len(a.Ident)-1]] {
					continue
				}
			case *parse.VariableNode:
				if len(a.Ident) > 1 && plain[a.Ident[len(a.Ident)-1]] {
					continue
				}
			case *parse.ChainNode:
				if len(a.Field) > 0 && plain[a.Field[len(a.Field)-1]] {
					continue
				}
			}
			var pt reflect.Type
			switch {
			case ft.IsVariadic() && i >= ft.NumIn()-1:
				pt = ft.In(ft.NumIn() - 1).Elem()
			case i < ft.NumIn():
				pt = ft.In(i)
			default:
				continue
			}
			for _, typ := range slices.Sorted(maps.Keys(values)) {
				kind := values[typ]
				if pt.Kind() == reflect.Interface || pt.Kind().String() == kind {
					panic("template: {{" + cmd.String() + "}} hands the function " + id.Ident + " a value that may be a " + typ +
						" of the data, which templates give functions as its underlying " + kind + " in this engine (its parameter's type would take it for one); " +
						"call the function with the value converted, or give the data the value's text")
				}
			}
		}
	})
}

// looksIntoData reports whether the template uses dot, a variable or a
// field.
func looksIntoData(n parse.Node) bool {
	found := false
	walkTemplate(n, func(n parse.Node) {
		switch n.(type) {
		case *parse.DotNode, *parse.FieldNode, *parse.VariableNode:
			found = true
		}
	})
	return found
}

// fmtFuncs are the builtin functions that format their arguments with
// fmt (and and or, which give one of them back); the other builtins give
// booleans, numbers, or what index, slice and call find, which is
// printed as a value.
var fmtFuncs = map[string]bool{"printf": true, "print": true, "println": true, "html": true, "js": true, "urlquery": true, "and": true, "or": true}

var plainFuncs = map[string]bool{"len": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true, "not": true}

// templatePrints calls f with each operand the template prints with
// fmt (an action's value, an argument of printf...) and the field name
// it ends in: "." for dot, a bare variable, or a value a function gives
// (one of funcs that gives a string or a bool gives no cell's value that
// fmt would print otherwise).
func templatePrints(n parse.Node, funcs map[string]reflect.Value, f func(parse.Node, string)) {
	keys := map[string]bool{} // $i of range $i, $v: an index, or a map's key ("[key]")
	var walk func(parse.Node)
	var printed func(parse.Node)
	printed = func(a parse.Node) {
		switch a := a.(type) {
		case *parse.FieldNode:
			f(a, a.Ident[len(a.Ident)-1])
		case *parse.ChainNode:
			if len(a.Field) > 0 {
				f(a, a.Field[len(a.Field)-1])
			} else {
				printed(a.Node)
			}
		case *parse.VariableNode:
			switch {
			case len(a.Ident) > 1:
				f(a, a.Ident[len(a.Ident)-1])
			case keys[a.Ident[0]]:
				f(a, "[key]")
			default:
				f(a, ".")
			}
		case *parse.DotNode:
			f(a, ".")
		case *parse.PipeNode:
			if a != nil && len(a.Cmds) > 0 {
				printedCmd(a.Cmds, len(a.Cmds)-1, funcs, printed, f)
			}
		}
	}
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			if len(n.Pipe.Decl) == 0 {
				printed(n.Pipe)
			}
		case *parse.IfNode:
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			if len(n.Pipe.Decl) == 2 {
				keys[n.Pipe.Decl[0].Ident[0]] = true
			}
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.List)
			walk(n.ElseList)
		}
	}
	walk(n)
}

// printedCmd reports the operands of cmds[i], whose value is printed.
func printedCmd(cmds []*parse.CommandNode, i int, funcs map[string]reflect.Value, printed func(parse.Node), f func(parse.Node, string)) {
	cmd := cmds[i]
	if len(cmd.Args) == 0 {
		return
	}
	id, isFunc := cmd.Args[0].(*parse.IdentifierNode)
	switch {
	case !isFunc:
		if len(cmd.Args) == 1 {
			printed(cmd.Args[0])
		}
	case strings.HasPrefix(id.Ident, templateCallPrefix):
		// a method of a cell's struct type (templateMethodCalls)
	case funcs[id.Ident].IsValid():
		if out := funcs[id.Ident].Type(); out.NumOut() == 0 || out.Out(0).Kind() != reflect.String && out.Out(0).Kind() != reflect.Bool {
			f(cmd, ".")
		}
	case fmtFuncs[id.Ident]:
		for _, a := range cmd.Args[1:] {
			printed(a)
		}
		if i > 0 {
			printedCmd(cmds, i-1, funcs, printed, f) // the value piped in
		}
	case (id.Ident == "index" || id.Ident == "slice") && len(cmd.Args) > 1:
		printed(cmd.Args[1]) // an element of it
	case plainFuncs[id.Ident]:
	default:
		f(cmd, ".") // what call gives
	}
}

// TemplateError is err, an error a template's Execute returned, with the
// interpreter's struct types it names (struct { G int "grundy:\"main.Row\" " })
// named as Go names them (main.Row).
func TemplateError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	named := renameCellStructs(unexportedFields(nameTemplateCalls(msg)))
	if named == msg {
		return err
	}
	var ee template.ExecError
	if errors.As(err, &ee) {
		return template.ExecError{Name: ee.Name, Err: errors.New(named)}
	}
	return errors.New(named)
}

// cannotEvaluate is a template's error for a field the type has not.
var cannotEvaluate = regexp.MustCompile(`can't evaluate field ([\pL_][\pL\pN_]*) in type (\*?struct \{ .*)`)

// unexportedFields writes "can't evaluate field f in type struct {...}"
// (or *struct {...}), f
// an unexported field the interpreter exported as Xf (see compat's
// hiddenFields), as Go's "f is an unexported field of struct type".
func unexportedFields(msg string) string {
	m := cannotEvaluate.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	field, typ := msg[m[2]:m[3]], msg[m[4]:m[5]]
	if ast.IsExported(field) || !strings.Contains(typ, "{ X"+field+" ") && !strings.Contains(typ, "; X"+field+" ") {
		return msg
	}
	return msg[:m[0]] + field + " is an unexported field of struct type " + typ
}

// renameCellStructs replaces each struct type in s that the interpreter
// made for a cell's type (its first field's tag names it) by its name.
// (Panics' messages name such types too: see reflectPanic.)
func renameCellStructs(s string) string {
	const open, mark = "struct { ", `grundy:\"` // the tag's last key, after json's and xml's when there are
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		end := structEnd(s, i+len(open))
		body := s[i:end]
		name := ""
		if tag := firstFieldTag(body, len(open)); tag != "" {
			if j := strings.Index(tag, mark); j >= 0 {
				rest := tag[j+len(mark):]
				if k := strings.Index(rest, `\"`); k >= 0 {
					name = rest[:k]
				}
			}
		}
		b.WriteString(s[:i])
		if name == "" || end > len(s) {
			b.WriteString(s[i : i+len(open)])
			s = s[i+len(open):]
			continue
		}
		if renamed := renamedInstance(body); renamed != "" {
			name = renamed
		}
		b.WriteString(instanceNameIn(name, body))
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// instanceNameIn is name, a struct type's name from its tag, with the type
// arguments of an instance of a generic type written in where the tag
// says where they are (main.Box[0] in struct { V []int "grundy:..." }:
// main.Box[[]int]), read from body, the struct type as reflect writes
// it; name itself when it says no more or body does not parse.
func instanceNameIn(name, body string) string {
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return name
	}
	paths, ok := argPaths(name[open:])
	if !ok {
		return name
	}
	x, err := parser.ParseExpr(body)
	st, ok := x.(*ast.StructType)
	if err != nil || !ok {
		return name
	}
	var fields []ast.Expr
	for _, f := range st.Fields.List {
		for range max(len(f.Names), 1) {
			fields = append(fields, f.Type)
		}
	}
	var args []string
	for _, p := range paths {
		if p.field >= len(fields) {
			return name
		}
		at := fields[p.field]
		for _, step := range p.steps {
			switch t := at.(type) {
			case *ast.StarExpr:
				at = t.X
			case *ast.ArrayType:
				at = t.Elt
			case *ast.ChanType:
				at = t.Value
			case *ast.MapType:
				if at = t.Value; step == 'k' {
					at = t.Key
				}
			default:
				return name
			}
		}
		// (as body writes it, on one line, for renameCellStructs;
		// ParseExpr's positions count from 1)
		from, to := int(at.Pos())-1, int(at.End())-1
		if from < 0 || to > len(body) || from > to {
			return name
		}
		args = append(args, renameCellStructs(body[from:to]))
	}
	return name[:open] + "[" + strings.Join(args, ",") + "]"
}

// structEnd is the index after the brace closing a struct type whose
// fields start at i in s (quoted tags skipped), len(s)+1 if none.
// firstFieldTag is the tag of the first field of body, a struct type as
// reflect writes it, whose fields begin at i: not one of a struct in the
// field's type (struct { I struct { N int "...In..." } "...Out..."; K int }
// is Out, whose tag comes after In's), "" when the first field has none.
func firstFieldTag(body string, i int) string {
	depth := 0
	for ; i < len(body); i++ {
		switch body[i] {
		case '"':
			start := i
			for i++; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return body[start:min(i+1, len(body))]
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return ""
			}
			depth--
		case ';':
			if depth == 0 {
				return ""
			}
		}
	}
	return ""
}

func structEnd(s string, i int) int {
	depth := 1
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s) + 1
}

// templateIdents calls f with each field or method name the template
// names.
func templateIdents(n parse.Node, f func(string)) {
	walkTemplate(n, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.FieldNode:
			for _, id := range n.Ident {
				f(id)
			}
		case *parse.ChainNode:
			for _, id := range n.Field {
				f(id)
			}
		case *parse.VariableNode:
			for _, id := range n.Ident[1:] {
				f(id)
			}
		}
	})
}

// walkTemplate calls f with n and each node below it.
func walkTemplate(n parse.Node, f func(parse.Node)) { walkNodes(n, true, f) }

// walkNodes is walkTemplate, into the bodies of range and with only if
// bodies (where dot is another value).
func walkNodes(n parse.Node, bodies bool, f func(parse.Node)) {
	f(n)
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkNodes(c, bodies, f)
			}
		}
	case *parse.ActionNode:
		walkNodes(n.Pipe, bodies, f)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, true, bodies, f)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, bodies, bodies, f)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, bodies, bodies, f)
	case *parse.TemplateNode:
		walkNodes(n.Pipe, bodies, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkNodes(c, bodies, f)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkNodes(a, bodies, f)
		}
	case *parse.ChainNode:
		walkNodes(n.Node, bodies, f)
	}
}

func walkBranch(b *parse.BranchNode, list, bodies bool, f func(parse.Node)) {
	walkNodes(b.Pipe, bodies, f)
	if list {
		walkNodes(b.List, bodies, f)
	}
	walkNodes(b.ElseList, bodies, f)
}

// dataFields calls f with each field the template looks up in its data:
// on dot where it is the data (not in range or with, which move it), or
// on $.
func dataFields(n parse.Node, f func(parse.Node)) {
	walkNodes(n, false, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.FieldNode:
			f(n)
		case *parse.VariableNode:
			if len(n.Ident) > 1 && n.Ident[0] == "$" {
				f(n)
			}
		}
	})
}

// TemplateData is data, for a template's Execute, when nothing in it is
// a value of a type a cell declares held in an interface (a []any
// holding a Heap, type Heap int, or a struct with methods): such a value
// is in the interpreter's box there (interp.valueInterface), which
// templates printed as its fields ({0xc000 {0x11a9960 ...}} for 5),
// silently. The cell is stopped before the template writes anything.
func (ts *Types) TemplateData(data any) any {
	if name := boxedInData(reflect.ValueOf(data), true, map[uintptr]bool{}, 0); name != "" {
		panic("template: the data holds a " + name + " in an interface (an any, or an element or field of one), which templates print as the interpreter's box in this engine; " +
			"pass such values in fields or elements of their own types, or their text (fmt.Sprint(v))")
	}
	if name := ts.printedStructIn(reflect.ValueOf(data), map[uintptr]bool{}, 0); name != "" {
		panic("template: the data holds a " + name + " in an interface (an any, or an element or field of one), whose String, Error or Format method templates do not see in this engine (they would print its fields); " +
			"pass its text instead (fmt.Sprint(v)), or the value in a field or element of its own type")
	}
	return data
}

// printedStructIn is the name of the first value of a cell's struct type
// with a String, Error or Format method that v holds in an interface (or
// is: the data itself, handed over as an any), "" if none: the
// interpreter makes such a type with reflect, without methods, and a
// template printed its fields where Go calls the method. (A value of a
// cell type in a field or element of its own type goes by the checks of
// TextTemplate.)
func (ts *Types) printedStructIn(v reflect.Value, seen map[uintptr]bool, depth int) string {
	if !v.IsValid() || depth > 100 {
		return ""
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		e := v.Elem()
		st := e.Type()
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if name := structName(st); name != "" && ts.printsByMethod(name, e.Kind() == reflect.Pointer) {
			return name
		}
		return ts.printedStructIn(e, seen, depth+1)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return ""
		}
		seen[v.Pointer()] = true
		return ts.printedStructIn(v.Elem(), seen, depth+1)
	case reflect.Struct:
		if depth == 0 {
			if name := structName(v.Type()); name != "" && ts.printsByMethod(name, false) {
				return name
			}
		}
		for i := range v.NumField() {
			if name := ts.printedStructIn(v.Field(i), seen, depth+1); name != "" {
				return name
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return ""
		}
		for i := range v.Len() {
			if name := ts.printedStructIn(v.Index(i), seen, depth+1); name != "" {
				return name
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if name := ts.printedStructIn(it.Value(), seen, depth+1); name != "" {
				return name
			}
		}
	}
	return ""
}

// printsByMethod reports whether the cell type name ("main.P") has a
// String, Error or Format method fmt calls on a value (ptr: on a
// pointer to one too).
func (ts *Types) printsByMethod(name string, ptr bool) bool {
	return ts.hasMethod(name, ptr, func(s methodSet) bool { return s.string.IsValid() || s.error.IsValid() || s.format.IsValid() })
}

// marshals reports whether the cell type name has a MarshalText or
// MarshalJSON method (ptr: on a pointer to one too).
func (ts *Types) marshals(name string, ptr bool) bool {
	return ts.hasMethod(name, ptr, func(s methodSet) bool { return s.marshalText.IsValid() || s.marshalJSON.IsValid() })
}

// hasMethod reports whether has is true of the methods of the cell type
// name's values (ptr: or of its pointers').
func (ts *Types) hasMethod(name string, ptr bool, has func(methodSet) bool) bool {
	ts.mu.Lock()
	nt := ts.named[name]
	ts.mu.Unlock()
	if nt == nil {
		return false
	}
	tab := nt.methods.Load()
	return tab != nil && (has(tab.val) || ptr && has(tab.ptr))
}

// boxedInData is the type of the first value of a cell's type v holds in
// an interface (top: v is the data itself, whose own box the template
// unwraps), "" if none.
func boxedInData(v reflect.Value, top bool, seen map[uintptr]bool, depth int) string {
	if !v.IsValid() || depth > 100 {
		return ""
	}
	if isBox(v.Type()) {
		inner, name, ok := unbox(v)
		if !ok {
			return ""
		}
		if !top {
			return name
		}
		return boxedInData(inner, false, seen, depth+1)
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return boxedInData(v.Elem(), false, seen, depth+1)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return ""
		}
		seen[v.Pointer()] = true
		return boxedInData(v.Elem(), top, seen, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if name := boxedInData(v.Field(i), false, seen, depth+1); name != "" {
				return name
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return ""
		}
		for i := range v.Len() {
			if name := boxedInData(v.Index(i), false, seen, depth+1); name != "" {
				return name
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if name := boxedInData(it.Key(), false, seen, depth+1); name != "" {
				return name
			}
			if name := boxedInData(it.Value(), false, seen, depth+1); name != "" {
				return name
			}
		}
	}
	return ""
}

// TextBuiltins gives t, a new text/template, the builtins print, printf
// and println through the printer, which names the cells' types as Go
// does: the native ones print a cell struct's %T and %#v as the
// interpreter's struct type, tag and all (struct { X int "grundy:..." }
// for main.Pt).
func (ts *Types) TextBuiltins(t *template.Template) *template.Template {
	if t == nil {
		return t
	}
	return t.Funcs(ts.printBuiltins())
}

// HTMLBuiltins is TextBuiltins for html/template.
func (ts *Types) HTMLBuiltins(t *htmltemplate.Template) *htmltemplate.Template {
	if t == nil {
		return t
	}
	return t.Funcs(htmltemplate.FuncMap(ts.printBuiltins()))
}

// printBuiltins are the template builtins print, printf and println
// printing their arguments by their dynamic types.
func (ts *Types) printBuiltins() template.FuncMap {
	typed := func(a []any) []any {
		out := make([]any, len(a))
		for i, x := range a {
			out[i] = ts.Typed(x, "interface {}")
		}
		return out
	}
	return template.FuncMap{
		"print":   func(a ...any) string { return Sprint(typed(a)...) },
		"printf":  func(format string, a ...any) string { return Sprintf(format, typed(a)...) },
		"println": func(a ...any) string { return Sprintln(typed(a)...) },
	}
}
