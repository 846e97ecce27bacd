package grundyrt

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"
)

// Templates calling the methods of cell types. A template finds a method
// by reflect (MethodByName), which sees none on the interpreter's types
// (see template.go), so where the template names a method the engine was
// handed a closure for ({{.Outcome}}, {{.Label "x"}}, {{$r.Total}},
// {{.Game.Nimsum}}), the name becomes a call of a function of the
// template's, _grundyM3_Outcome receiver args..., which calls the closure
// whose receiver type is the receiver's (T, or *T as Go's template
// reaches pointer methods: through a pointer or an addressable value).
// A receiver none of the closures takes (another type's field or map key
// of that name) gets what the template would have found there.

// templateCallPrefix begins the names of the functions written into
// templates for methods.
const templateCallPrefix = "_grundyM"

// templateCall is one method name written over: what the template said
// (.Game.Nimsum, for its error messages) and the method.
type templateCall struct{ text, method string }

var templateCalls struct {
	sync.Mutex
	byName map[string]templateCall
}

// templateMethodCalls writes calls into trees for the methods calls has
// closures of (pairs of a method's name and a closure taking the receiver
// first, then the method's arguments) and gives the functions to add to
// the templates: the calls written now and those written by an earlier
// Execute (the trees are the template's own, written once).
func templateMethodCalls(trees []*parse.Tree, calls []any) map[string]any {
	closures := map[string][]reflect.Value{}
	for i := 0; i+1 < len(calls); i += 2 {
		name, _ := calls[i].(string)
		if fn := reflect.ValueOf(calls[i+1]); fn.Kind() == reflect.Func {
			closures[name] = append(closures[name], fn)
		}
	}
	if len(closures) == 0 {
		return nil
	}
	out := map[string]any{}
	for _, tr := range trees {
		if tr == nil || tr.Root == nil {
			continue
		}
		walkTemplate(tr.Root, func(n parse.Node) {
			if cmd, ok := n.(*parse.CommandNode); ok {
				writeMethodCalls(cmd, closures)
			}
		})
		walkTemplate(tr.Root, func(n parse.Node) {
			id, ok := n.(*parse.IdentifierNode)
			if !ok || !strings.HasPrefix(id.Ident, templateCallPrefix) {
				return
			}
			templateCalls.Lock()
			c, ok := templateCalls.byName[id.Ident]
			templateCalls.Unlock()
			if ok {
				out[id.Ident] = methodCaller(c.method, closures[c.method])
			}
		})
	}
	return out
}

// writeMethodCalls replaces each operand of cmd that names a method of
// closures (the first such name in its chain of fields) by a call of it.
func writeMethodCalls(cmd *parse.CommandNode, closures map[string][]reflect.Value) {
	for i := 0; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		var fields []string
		var recv func(prefix []string) parse.Node
		var text func(prefix []string) string
		pos := a.Position()
		switch a := a.(type) {
		case *parse.FieldNode:
			fields = a.Ident
			recv = func(p []string) parse.Node {
				if len(p) == 0 {
					return &parse.DotNode{NodeType: parse.NodeDot, Pos: pos}
				}
				return &parse.FieldNode{NodeType: parse.NodeField, Pos: pos, Ident: p}
			}
			text = func(p []string) string { return "." + strings.Join(p, ".") }
		case *parse.VariableNode:
			v := a.Ident[0]
			fields = a.Ident[1:]
			recv = func(p []string) parse.Node {
				return &parse.VariableNode{NodeType: parse.NodeVariable, Pos: pos, Ident: append([]string{v}, p...)}
			}
			text = func(p []string) string { return strings.Join(append([]string{v}, p...), ".") }
		case *parse.ChainNode:
			base := a.Node
			fields = a.Field
			recv = func(p []string) parse.Node {
				if len(p) == 0 {
					return base
				}
				return &parse.ChainNode{NodeType: parse.NodeChain, Pos: pos, Node: base, Field: p}
			}
			text = func(p []string) string { return base.String() + "." + strings.Join(p, ".") }
		default:
			continue
		}
		j := 0
		for j < len(fields) && closures[fields[j]] == nil {
			j++
		}
		if j == len(fields) {
			continue
		}
		name := newTemplateCall(text(fields[:j+1]), fields[j])
		call := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos,
			Args: []parse.Node{parse.NewIdentifier(name).SetPos(pos), recv(slices.Clip(fields[:j]))}}
		rest := fields[j+1:]
		if i == 0 && len(rest) == 0 {
			// the command's first word: its arguments (and what is
			// piped in) are the method's
			call.Args = append(call.Args, cmd.Args[1:]...)
			cmd.Args = call.Args
			i = 1
			continue
		}
		var repl parse.Node = &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{call}}
		if len(rest) > 0 {
			repl = &parse.ChainNode{NodeType: parse.NodeChain, Pos: pos, Node: repl, Field: rest}
		}
		cmd.Args[i] = repl
		if len(rest) > 0 {
			i-- // the same operand again, for a method in rest
		}
	}
}

// newTemplateCall names a call of method written where the template said
// text.
func newTemplateCall(text, method string) string {
	templateCalls.Lock()
	defer templateCalls.Unlock()
	if templateCalls.byName == nil {
		templateCalls.byName = map[string]templateCall{}
	}
	name := templateCallPrefix + strconv.Itoa(len(templateCalls.byName)) + "_" + method
	templateCalls.byName[name] = templateCall{text, method}
	return name
}

// methodCaller is the function a call of method written into a template
// calls: the closure whose receiver recv is, or can be made as Go's
// template makes it, with the arguments converted to the method's
// parameter types as the template converts constants; else the field or
// map entry the template would have found.
func methodCaller(method string, closures []reflect.Value) func(recv reflect.Value, args ...reflect.Value) (reflect.Value, error) {
	return func(recv reflect.Value, args ...reflect.Value) (reflect.Value, error) {
		for recv.IsValid() && recv.Kind() == reflect.Interface && !recv.IsNil() {
			recv = recv.Elem()
		}
		if !recv.IsValid() {
			return reflect.Value{}, fmt.Errorf("nil pointer evaluating interface {}.%s", method)
		}
		for _, fn := range closures {
			want := fn.Type().In(0)
			r := recv
			switch {
			case r.Type() == want:
			case r.Kind() == reflect.Pointer && r.Type().Elem() == want:
				if r.IsNil() {
					return reflect.Value{}, fmt.Errorf("nil pointer evaluating %s.%s", r.Type(), method)
				}
				r = r.Elem()
			case want.Kind() == reflect.Pointer && want.Elem() == r.Type() && r.CanAddr():
				r = r.Addr()
			default:
				continue
			}
			return callMethod(fn, method, r, args)
		}
		return templateField(recv, method, len(args) > 0)
	}
}

func callMethod(fn reflect.Value, method string, recv reflect.Value, args []reflect.Value) (reflect.Value, error) {
	ft := fn.Type()
	fixed := ft.NumIn() - 1
	if ft.IsVariadic() {
		fixed--
		if len(args) < fixed {
			return reflect.Value{}, fmt.Errorf("wrong number of args for %s: want at least %d got %d", method, fixed, len(args))
		}
	} else if fixed != len(args) {
		return reflect.Value{}, fmt.Errorf("wrong number of args for %s: want %d got %d", method, fixed, len(args))
	}
	in := []reflect.Value{recv}
	for i, a := range args {
		pt := ft.In(min(i+1, ft.NumIn()-1))
		if ft.IsVariadic() && i >= fixed {
			pt = pt.Elem()
		}
		for a.IsValid() && a.Kind() == reflect.Interface && !a.IsNil() && !a.Type().AssignableTo(pt) {
			a = a.Elem()
		}
		switch {
		case !a.IsValid():
			a = reflect.Zero(pt)
		case a.Type().AssignableTo(pt):
		case a.Kind() != reflect.Struct && a.Kind() != reflect.Pointer && a.Type().ConvertibleTo(pt) && pt.Kind() != reflect.String:
			a = a.Convert(pt)
		default:
			return reflect.Value{}, fmt.Errorf("wrong type for value; expected %s; got %s", pt, a.Type())
		}
		in = append(in, a)
	}
	out := fn.Call(in)
	if len(out) == 2 {
		if err, _ := out[1].Interface().(error); err != nil {
			return out[0], err
		}
	}
	return out[0], nil
}

// templateField is the field or map entry named name of recv, as a
// template finds one that is not a method.
func templateField(recv reflect.Value, name string, hasArgs bool) (reflect.Value, error) {
	v := recv
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}, fmt.Errorf("nil pointer evaluating %s.%s", recv.Type(), name)
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		if f, ok := v.Type().FieldByName(name); ok && f.IsExported() && !hasArgs {
			return v.FieldByIndex(f.Index), nil
		}
	case reflect.Map:
		if k := reflect.ValueOf(name); k.Type().AssignableTo(v.Type().Key()) && !hasArgs {
			return v.MapIndex(k), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("can't evaluate field %s in type %s", name, recv.Type())
}

// nameTemplateCalls writes the calls templateMethodCalls wrote in msg, an
// error of a template, as the template said them: at <.Check>, error
// calling Check.
func nameTemplateCalls(msg string) string {
	if !strings.Contains(msg, templateCallPrefix) {
		return msg
	}
	templateCalls.Lock()
	defer templateCalls.Unlock()
	for name, c := range templateCalls.byName {
		if !strings.Contains(msg, name) {
			continue
		}
		msg = strings.ReplaceAll(msg, "error calling "+name+": can't evaluate field", "can't evaluate field")
		msg = strings.ReplaceAll(msg, "error calling "+name+": nil pointer evaluating", "nil pointer evaluating")
		msg = strings.ReplaceAll(msg, "error calling "+name+": wrong number of args", "wrong number of args")
		msg = strings.ReplaceAll(msg, "error calling "+name+":", "error calling "+c.method+":")
		// at <...>: the call's command, its receiver and arguments after
		// the name
		msg = regexp.MustCompile("<"+name+"( [^>]*)?>").ReplaceAllLiteralString(msg, "<"+c.text+">")
	}
	return msg
}
