package compat

import (
	"go/ast"
	"go/types"
	"slices"
)

// anonEmbed refuses a value of an unnamed struct type that embeds an
// interface (struct{ fmt.Stringer; n int }{...}) put in an interface with
// methods, or in an empty one (an argument of fmt.Println) when it has a
// method fmt or encoding/json would call (String, Error...). yaegi v0.16.1
// looks for the interface's methods on the struct itself when it wraps
// the value (interp/run.go, genInterfaceWrapper), not in the embedded
// field: the first call panicked ("method not found: String"), and fmt
// printed the fields instead of calling String ({CN(3,2) 1}, not
// CN(3,2)). embedMethods declares such methods on a named type at the
// cell's top level; an unnamed one, or one declared in a function, cannot
// have any. An unnamed struct type embedding a struct type with methods
// keeps them in an interface with methods, but not in an empty one:
// fmt.Println(struct{ N }{}), N with String, printed {str}, not str; it
// is refused when it has a method fmt or json would call, and, with any
// method, when interpreted code puts it in an empty interface: an
// assertion of it to an interface it implements was false, silently.
var anonEmbed = Pass{
	Name:     "anonembed",
	Run:      runAnonEmbed,
	Kinds:    assignedKinds,
	Snippets: []string{"embedded_interface_unnamed_struct_refused", "embedded_struct_unnamed_printed_refused", "embedded_struct_unnamed_in_any_refused", "embedded_struct_unnamed_held_refused"},
}

func runAnonEmbed(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		for _, v := range c.assignedValues(cur, nil) {
			iface, ok := v.target.Underlying().(*types.Interface)
			if !ok {
				continue
			}
			vt := types.Unalias(c.Types.TypeOf(v.value))
			if n, ok := vt.(*types.Named); ok && localType(n) {
				if st, ok := n.Underlying().(*types.Struct); ok && embedsIface(st) && (iface.NumMethods() > 0 || printsByMethod(n)) {
					c.Fail(v.value.Pos(), "a value of %s, a type declared in a function that embeds an interface, put in an interface (%s): the interpreter loses the methods it has through the embedded interface; declare %s at the cell's top level",
						n.Obj().Name(), types.TypeString(v.target, pkgName), n.Obj().Name())
					return false
				}
				continue
			}
			st, ok := vt.(*types.Struct)
			if !ok {
				if in := heldAnonPrinter(vt, map[types.Type]bool{}); in != nil {
					c.Fail(v.value.Pos(), "a value of %s holds values of an unnamed struct type with %s method of an embedded field (%s), and is put in an interface (%s): the interpreter makes that struct type without the method, so fmt would print its fields; declare the struct as a named type (type S struct{ ... }) and use S",
						types.TypeString(vt, pkgName), printMethod(in), types.TypeString(in, pkgName), types.TypeString(v.target, pkgName))
					return false
				}
			}
			if ok && !embedsIface(st) && iface.NumMethods() == 0 && printsByMethod(st) {
				c.Fail(v.value.Pos(), "a value of an unnamed struct type with %s method of an embedded field, put in an interface (%s): the interpreter loses the methods it has through the embedded field there; declare the struct as a named type (type S struct{ ... }) and use S",
					printMethod(st), types.TypeString(v.target, pkgName))
				return false
			}
			if !ok || !embedsIface(st) || iface.NumMethods() == 0 && !printsByMethod(st) {
				continue
			}
			c.Fail(v.value.Pos(), "a value of an unnamed struct type embedding an interface, put in an interface (%s): the interpreter loses the methods it has through the embedded interface; declare the struct as a named type (type S struct{ ... }) and use S",
				types.TypeString(v.target, pkgName))
			return false
		}
		if x, msg := c.conversionRefused(cur); msg != "" {
			c.Fail(x.Pos(), "%s", msg)
			return false
		}
		// Kept in an any by interpreted code, it may be asserted to an
		// interface later, which fails silently (native functions, fmt's
		// arguments, print its fields as Go does).
		for _, v := range c.assignedValues(cur, c.interpreted) {
			iface, ok := v.target.Underlying().(*types.Interface)
			if !ok || iface.NumMethods() > 0 {
				continue
			}
			st, ok := types.Unalias(c.Types.TypeOf(v.value)).(*types.Struct)
			if ok && (types.NewMethodSet(st).Len() > 0 || types.NewMethodSet(types.NewPointer(st)).Len() > 0) {
				c.Fail(v.value.Pos(), "a value of an unnamed struct type with methods of an embedded field, put in an interface (%s): the interpreter makes the type without them, so an assertion to an interface it implements would be false; declare the struct as a named type (type S struct{ ... }) and use S",
					types.TypeString(v.target, pkgName))
				return false
			}
		}
		return true
	})
}

// conversionRefused is the refusal of an explicit conversion at cur of a
// value of an unnamed struct type to an interface (any(x), Shape(x),
// error(w)) where the interpreter loses what the implicit one would:
// into an empty interface, the methods of an embedded field that is not
// an interface (any(struct{ Sq }{...}).(Shape) was false); into one with
// methods, those of an embedded interface (fmt.Stringer(w) with w a
// struct{ fmt.Stringer; k int } panicked in reflect.Set), and into an
// empty one, those fmt would call (any(w) printed {v1 2}, Go v1). (""
// when none.) A struct embedding only an interface without methods fmt
// calls, put in an empty interface, keeps its methods there, and so does
// a named type declared in a function.
func (c *Cell) conversionRefused(cur Cursor) (ast.Expr, string) {
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !c.Types.IsType(call.Fun) {
		return nil, ""
	}
	target := c.Types.TypeOf(call.Fun)
	iface, ok := typeUnder(target).(*types.Interface)
	if !ok {
		return nil, ""
	}
	st, ok := types.Unalias(c.Types.TypeOf(call.Args[0])).(*types.Struct)
	if !ok {
		return nil, ""
	}
	switch {
	case embedsIface(st) && (iface.NumMethods() > 0 || printsByMethod(st)):
		return call.Args[0], "a value of an unnamed struct type embedding an interface, converted to an interface (" + types.TypeString(target, pkgName) + "): the interpreter loses the methods it has through the embedded interface; declare the struct as a named type (type S struct{ ... }) and use S"
	case iface.NumMethods() == 0 && !embedsIface(st) && (types.NewMethodSet(st).Len() > 0 || types.NewMethodSet(types.NewPointer(st)).Len() > 0):
		return call.Args[0], "a value of an unnamed struct type with methods of an embedded field, converted to an interface (" + types.TypeString(target, pkgName) + "): the interpreter makes the type without them, so an assertion to an interface it implements would be false; declare the struct as a named type (type S struct{ ... }) and use S"
	}
	return nil, ""
}

// embedsIface reports whether st embeds an interface with methods.
func embedsIface(st *types.Struct) bool {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if it, ok := f.Type().Underlying().(*types.Interface); f.Embedded() && ok && it.NumMethods() > 0 {
			return true
		}
	}
	return false
}

// heldAnonPrinter is an unnamed struct type that values of t (not itself
// one) hold, through pointers, elements, keys or the fields of a cell's
// struct type without such methods of its own, that embeds an interface
// or has a method fmt would call from an embedded field ([]struct{ ID; Z
// bool }, ID with String; &struct{ time.Duration }{...}), or nil. Go's
// printer calls the promoted method, where the interpreter's reflect type
// of the struct has none (it printed [{#001 true}], Go [#001]).
func heldAnonPrinter(t types.Type, seen map[types.Type]bool) types.Type {
	t = types.Unalias(t)
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Struct:
		if embedsIface(u) || printsByMethod(u) {
			return u
		}
		for i := range u.NumFields() {
			if in := heldAnonPrinter(u.Field(i).Type(), seen); in != nil {
				return in
			}
		}
	case *types.Pointer:
		if st, ok := types.Unalias(u.Elem()).(*types.Struct); ok && printsByMethod(u) {
			return st
		}
		return heldAnonPrinter(u.Elem(), seen)
	case *types.Slice:
		return heldAnonPrinter(u.Elem(), seen)
	case *types.Array:
		return heldAnonPrinter(u.Elem(), seen)
	case *types.Map:
		if in := heldAnonPrinter(u.Key(), seen); in != nil {
			return in
		}
		return heldAnonPrinter(u.Elem(), seen)
	case *types.Named:
		o := u.Obj()
		if o.Pkg() == nil || o.Pkg().Path() != "main" || printsByMethod(u) || printsByMethod(types.NewPointer(u)) || types.IsInterface(u) {
			return nil
		}
		if st, ok := u.Underlying().(*types.Struct); ok {
			// (The named struct is no unnamed one: its fields.)
			for i := range st.NumFields() {
				if in := heldAnonPrinter(st.Field(i).Type(), seen); in != nil {
					return in
				}
			}
			return nil
		}
		return heldAnonPrinter(u.Underlying(), seen)
	}
	return nil
}

// printMethods are the methods fmt or encoding/json call on a value.
var printMethods = []string{"String", "Error", "Format", "GoString", "MarshalJSON", "MarshalText"}

// printsByMethod reports whether a value of t has a method that fmt or
// encoding/json would call on it.
func printsByMethod(t types.Type) bool {
	ms := types.NewMethodSet(t)
	return slices.ContainsFunc(printMethods, func(m string) bool { return ms.Lookup(nil, m) != nil })
}

// printMethod names, for a message, the first method of printMethods a
// value of t has ("a String", "an Error"), or for a struct embedding an
// interface without one, "an interface's".
func printMethod(t types.Type) string {
	ms := types.NewMethodSet(t)
	for _, m := range printMethods {
		if ms.Lookup(nil, m) != nil {
			return an(m)
		}
	}
	return "an interface's"
}

// localType reports whether n is declared in a function (where it can
// have no methods of its own).
func localType(n *types.Named) bool {
	o := n.Obj()
	return o.Pkg() != nil && o.Parent() != nil && o.Parent() != o.Pkg().Scope()
}
