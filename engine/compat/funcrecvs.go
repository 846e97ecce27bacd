package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// funcRecvs: a method of a function type the cells declare (type Op
// func(a, b int) int with Apply) on a value read from a struct's field,
// c.last.Apply(3, 4), or from a variable assigned one (f := c.last;
// f.Apply). yaegi v0.16.1 types a struct's field of a function type by
// its reflect type, which has no methods, so such a call failed to
// compile ("undefined method: Apply"), where a map's or a slice's element
// and a variable of the type work. The field (or the variable) is
// converted to its type, which gives the interpreter the type back:
//
//	c.last.Apply(3, 4)  =>  Op(c.last).Apply(3, 4)
//
// Value receivers only (a pointer receiver needs the place); a
// self-referring function type is a struct already (selfFuncs).
var funcRecvs = Pass{
	Name:     "funcrecvs",
	Run:      runFuncRecvs,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"func_type_methods_from_fields"},
}

func runFuncRecvs(c *Cell) {
	var inits map[types.Object][]ast.Expr // see isFieldRecv, made when first needed
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				c.convertFieldValues(n.Rhs)
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				c.convertFieldValues(n.Values)
			}
		}
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s, ok := c.Types.Selections[sel]
		if !ok || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
			return true
		}
		n, ok := types.Unalias(s.Recv()).(*types.Named)
		if !ok || !typecheck.IsCellType(n) || selfFunc(n) {
			return true
		}
		if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
			return true
		}
		if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv || !c.isFieldRecv(sel.X, &inits) {
			return true
		}
		tx, ok := c.TypeExpr(n, sel.X.Pos())
		if !ok {
			return true
		}
		conv := &ast.CallExpr{Fun: tx, Lparen: sel.X.Pos(), Args: []ast.Expr{sel.X}, Rparen: sel.X.End()}
		c.Types.Types[conv] = types.TypeAndValue{Type: n}
		sel.X = conv
		return true
	})
}

// convertFieldValues converts each of vals, the values of an assignment
// or a declaration, that is a struct's field of a function type with
// methods the cells declare (o := st.op) to its type, Op(st.op): the
// variable then has the type in the interpreter, whose methods a later
// cell's o.Name() finds (it failed to compile, "undefined method: Name",
// where this cell's own uses are converted by isFieldRecv).
func (c *Cell) convertFieldValues(vals []ast.Expr) {
	for i, v := range vals {
		n, ok := types.Unalias(c.Types.TypeOf(v)).(*types.Named)
		if !ok || !c.isFieldSelector(v) || !typecheck.IsCellType(n) || selfFunc(n) || n.NumMethods() == 0 {
			continue
		}
		if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
			continue
		}
		tx, ok := c.TypeExpr(n, v.Pos())
		if !ok {
			continue
		}
		conv := &ast.CallExpr{Fun: tx, Lparen: v.Pos(), Args: []ast.Expr{v}, Rparen: v.End()}
		c.Types.Types[conv] = types.TypeAndValue{Type: n}
		vals[i] = conv
	}
}

// isFieldRecv reports whether e is a struct's field, or a variable this
// cell assigns only fields to (o := st.op; o.Name()): the interpreter
// types it by the field. (Another variable stays as it is: a conversion
// of one whose value a call made cannot select the method either,
// "undefined selector".)
func (c *Cell) isFieldRecv(e ast.Expr, inits *map[types.Object][]ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return c.isFieldSelector(e)
	}
	obj, ok := c.Types.ObjectOf(id).(*types.Var)
	if !ok {
		return false
	}
	if *inits == nil {
		*inits = c.localInits()
	}
	vals := (*inits)[obj]
	for _, v := range vals {
		if !c.isFieldSelector(v) {
			return false
		}
	}
	return len(vals) > 0
}
