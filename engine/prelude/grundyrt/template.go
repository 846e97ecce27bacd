package grundyrt

import (
	htmltemplate "html/template"
	"strings"
	"text/template"
	"text/template/parse"
)

// Templates and the methods of cell types. yaegi v0.16.1 gives the types
// cells declare no methods reflect can call (interp/type.go, refType), and
// text/template finds methods by reflect: {{.Greeting}} on a cell type
// fails with "can't evaluate field Greeting", after the template has
// written what came before. No native value can carry the method, so a
// template that names a method of the data's cell types is stopped before
// it writes anything, saying what to write instead.

// TextTemplate is t, checked against methods ("Greeting main.User", one per
// line: the exported methods of the cell types in the data's type).
func TextTemplate(t *template.Template, methods string) *template.Template {
	if t != nil {
		for _, x := range t.Templates() {
			checkTemplate(x.Tree, methods)
		}
	}
	return t
}

// HTMLTemplate is TextTemplate for html/template.
func HTMLTemplate(t *htmltemplate.Template, methods string) *htmltemplate.Template {
	if t != nil {
		for _, x := range t.Templates() {
			checkTemplate(x.Tree, methods)
		}
	}
	return t
}

func checkTemplate(tree *parse.Tree, methods string) {
	if tree == nil || tree.Root == nil {
		return
	}
	byName := map[string]string{}
	for _, l := range strings.Split(methods, "\n") {
		if name, typ, ok := strings.Cut(l, " "); ok {
			byName[name] = typ
		}
	}
	templateIdents(tree.Root, func(id string) {
		if typ, ok := byName[id]; ok {
			panic("template: {{." + id + "}} calls the method " + id + " of " + typ +
				", which templates cannot call in this engine; pass its result instead (a field, or a map entry)")
		}
	})
}

// templateIdents calls f with each field or method name the template
// names.
func templateIdents(n parse.Node, f func(string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				templateIdents(c, f)
			}
		}
	case *parse.ActionNode:
		templateIdents(n.Pipe, f)
	case *parse.IfNode:
		templateBranch(&n.BranchNode, f)
	case *parse.RangeNode:
		templateBranch(&n.BranchNode, f)
	case *parse.WithNode:
		templateBranch(&n.BranchNode, f)
	case *parse.TemplateNode:
		templateIdents(n.Pipe, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				templateIdents(c, f)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			templateIdents(a, f)
		}
	case *parse.FieldNode:
		for _, id := range n.Ident {
			f(id)
		}
	case *parse.ChainNode:
		templateIdents(n.Node, f)
		for _, id := range n.Field {
			f(id)
		}
	case *parse.VariableNode:
		for _, id := range n.Ident[1:] {
			f(id)
		}
	}
}

func templateBranch(b *parse.BranchNode, f func(string)) {
	templateIdents(b.Pipe, f)
	templateIdents(b.List, f)
	templateIdents(b.ElseList, f)
}
