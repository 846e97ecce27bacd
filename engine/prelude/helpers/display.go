package helpers

import (
	"grundy/engine/display"
	"grundy/engine/prelude/grundyrt"
)

// The display convention of package display (display.Methods), for the
// values of types cells declare: native code cannot see their methods, so
// these find them and hand display.FromParts what they return, the way
// display.PartsOf does for compiled types. One interface per method:
// yaegi v0.16.1 does not see interpreted methods through interfaces
// declared in native packages.
type (
	_grundyMIMETyper  interface{ MIMETypes() []string }
	_grundyBundler    interface{ Bundle() display.Bundle }
	_grundyHTMLer     interface{ HTML() string }
	_grundyMarkdowner interface{ Markdown() string }
	_grundyLaTeXer    interface{ LaTeX() string }
	_grundySVGer      interface{ SVG() ([]byte, error) }
	_grundyPNGer      interface{ PNG() ([]byte, error) }
	_grundyJPEGer     interface{ JPEG() ([]byte, error) }
	_grundyJSONer     interface{ JSON() any }
	_grundyError      interface{ Error() string }
	_grundyStringer   interface{ String() string }
)

// _grundyPart calls v's display method named method, if it has it. Type
// switches, one per method: yaegi v0.16.1 fails on "x, ok := v.(I)" for
// interpreted types, and sometimes matches a case whose method the type
// lacks (the call then panics: recovered here).
func _grundyPart(v any, method string) (p display.Part, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch method {
	case "MIMETypes":
		switch x := v.(type) {
		case _grundyMIMETyper:
			return display.Part{Value: x.MIMETypes()}, true
		}
	case "Bundle":
		switch x := v.(type) {
		case _grundyBundler:
			return display.Part{Value: x.Bundle()}, true
		}
	case "HTML":
		switch x := v.(type) {
		case _grundyHTMLer:
			return display.Part{Value: x.HTML()}, true
		}
	case "Markdown":
		switch x := v.(type) {
		case _grundyMarkdowner:
			return display.Part{Value: x.Markdown()}, true
		}
	case "LaTeX":
		switch x := v.(type) {
		case _grundyLaTeXer:
			return display.Part{Value: x.LaTeX()}, true
		}
	case "SVG":
		switch x := v.(type) {
		case _grundySVGer:
			b, err := x.SVG()
			return display.Part{Value: b, Err: err}, true
		}
	case "PNG":
		switch x := v.(type) {
		case _grundyPNGer:
			b, err := x.PNG()
			return display.Part{Value: b, Err: err}, true
		}
	case "JPEG":
		switch x := v.(type) {
		case _grundyJPEGer:
			b, err := x.JPEG()
			return display.Part{Value: b, Err: err}, true
		}
	case "JSON":
		switch x := v.(type) {
		case _grundyJSONer:
			return display.Part{Value: x.JSON()}, true
		}
	case "Error":
		switch x := v.(type) {
		case _grundyError:
			if grundyrt.LacksError(v) {
				break // (the interpreter's type switch took a Code whose Error is (*Code)'s for an error)
			}
			return display.Part{Value: x.Error()}, true
		}
	case "String":
		switch x := v.(type) {
		case _grundyStringer:
			return display.Part{Value: x.String()}, true
		}
	}
	return display.Part{}, false
}

// _grundyErr is v's Error(), if it has one.
func _grundyErr(v any) (string, bool) {
	p, ok := _grundyPart(v, "Error")
	s, _ := p.Value.(string)
	return s, ok
}

// _grundyString is v's String(), if it has one.
func _grundyString(v any) (string, bool) {
	p, ok := _grundyPart(v, "String")
	s, _ := p.Value.(string)
	return s, ok
}

// _grundyParts is what v's display methods return, for a value of a type
// a cell declared (none for compiled types: display.PartsOf finds theirs).
func _grundyParts(v any) display.Parts {
	parts := display.Parts{}
	if v == nil || !grundyrt.Interpreted(v) && !grundyrt.CellBox(v) {
		if grundyrt.HoldsWrapped(v) {
			parts[display.TextPart] = display.Part{Value: grundyrt.Text(v)}
		}
		return parts
	}
	// What fmt's %v prints, which a value's text is.
	parts[display.TextPart] = display.Part{Value: grundyrt.Text(v)}
	var types []string
	if p, ok := _grundyPart(v, "MIMETypes"); ok {
		parts["MIMETypes"] = p
		types, _ = p.Value.([]string)
	}
	for _, m := range display.Methods {
		if m == "MIMETypes" || m == "String" || !display.Wanted(types, m) {
			continue // (String: the text above called it, as %v does, once)
		}
		if p, ok := _grundyPart(v, m); ok {
			parts[m] = p
		}
	}
	return parts
}

// _grundyShown is a shown value of an instance of a generic type, which
// the passes hand over twice (see compat's shownArg): as the interpreter
// holds it, for the helpers to find its display methods, and Typed, for
// the printer to write its text by its static type (the interpreter's
// reflect type of Matrix[int] on [][]T is [][]int, without String).
type _grundyShown struct{ v, typed any }

func _grundyShownAs(v, typed any) any { return _grundyShown{v, typed} }

// _grundyShownParts is v as shown, with its display methods' parts.
// An Error the type switches missed (a pointer to a struct whose Error
// has a value receiver) is asked of the printer, which knows the methods.
func _grundyShownParts(v any) (any, display.Parts) {
	var parts display.Parts
	switch s := v.(type) {
	case _grundyShown:
		parts = _grundyParts(s.v)
		parts[display.TextPart] = display.Part{Value: grundyrt.Text(s.typed)}
		v = s.typed
	default:
		parts = _grundyParts(v)
	}
	if _, ok := parts["Error"]; !ok && len(parts) > 0 {
		if e, ok := grundyrt.ErrorText(v); ok {
			parts["Error"] = display.Part{Value: e}
		}
	}
	return v, parts
}

// _grundyShow shows a cell's trailing values.
func _grundyShow(vs ...any) { _grundyShowNow(vs) }

// _grundyShowAfterDefers shows them once the cell's top-level defers
// ran, if it registered any (Go makes the value where the cell ends and
// shows it after them: a deferred c.Inc() shows in &c, and String runs
// after the deferred calls' output). A cell without top-level defers
// calls _grundyShow, which makes no closure.
func _grundyShowAfterDefers(vs ...any) {
	if !grundyrt.ShowLater(func() { _grundyShowNow(vs) }) {
		_grundyShowNow(vs)
	}
}

func _grundyShowNow(vs []any) {
	parts := make([]display.Parts, len(vs))
	for i, v := range vs {
		vs[i], parts[i] = _grundyShownParts(v)
	}
	grundyrt.Show(vs, parts)
}

// _grundyShowNative shows trailing values whose types cells did not
// declare: native code sees all their methods, and the interpreted
// search for display methods, whose frames yaegi allocates whole at each
// call, is skipped.
func _grundyShowNative(vs ...any) { grundyrt.Show(vs, nil) }

// _grundyShowNativeAfterDefers is _grundyShowNative once the cell's
// top-level defers ran (see _grundyShowAfterDefers).
func _grundyShowNativeAfterDefers(vs ...any) {
	if !grundyrt.ShowLater(func() { grundyrt.Show(vs, nil) }) {
		grundyrt.Show(vs, nil)
	}
}

func _grundyDisplay(vs ...any) {
	for _, v := range vs {
		if v == nil && len(vs) > 1 {
			continue
		}
		grundyrt.Display(_grundyShownParts(v))
	}
}

func _grundyRender(v any) display.Bundle { return grundyrt.Render(_grundyShownParts(v)) }
