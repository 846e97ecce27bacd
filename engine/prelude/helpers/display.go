package helpers

import (
	"fmt"

	"grundy/engine/display"
	"grundy/engine/prelude/grundyrt"
)

type _grundyHTMLer interface{ HTML() string }
type _grundyMarkdowner interface{ Markdown() string }
type _grundyLaTeXer interface{ LaTeX() string }
type _grundySVGer interface{ SVG() ([]byte, error) }
type _grundyPNGer interface{ PNG() ([]byte, error) }
type _grundyJPEGer interface{ JPEG() ([]byte, error) }
type _grundyStringer interface{ String() string }
type _grundyError interface{ Error() string }

// Type switches, one per method: yaegi v0.16.1 fails on "x, ok :=
// v.(I)" for interpreted types, does not see their methods through
// interfaces declared in native packages, and sometimes matches a case
// whose method the type lacks (the call then panics: recovered here).
func _grundyHTML(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyHTMLer:
		return x.HTML(), true
	}
	return "", false
}

func _grundyMarkdown(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyMarkdowner:
		return x.Markdown(), true
	}
	return "", false
}

func _grundyLaTeX(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyLaTeXer:
		return x.LaTeX(), true
	}
	return "", false
}

func _grundyString(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyStringer:
		return x.String(), true
	}
	return "", false
}

func _grundyErr(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyError:
		return x.Error(), true
	}
	return "", false
}

func _grundySVG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundySVGer:
		b, err = x.SVG()
		return b, err, true
	}
	return nil, nil, false
}

func _grundyPNG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyPNGer:
		b, err = x.PNG()
		return b, err, true
	}
	return nil, nil, false
}

func _grundyJPEG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyJPEGer:
		b, err = x.JPEG()
		return b, err, true
	}
	return nil, nil, false
}

func _grundyParts(v any) map[string]any {
	m := map[string]any{}
	if v == nil || !grundyrt.Interpreted(v) {
		return m
	}
	if s, ok := _grundyFmtHook(v).([]string); ok {
		if _, isStrings := v.([]string); !isStrings {
			m["text/plain"] = fmt.Sprint(s)
		}
	} else if s, ok := grundyrt.FmtMapText(_grundyFmtHook(v)); ok {
		m["text/plain"] = s
	}
	if s, ok := _grundyErr(v); ok {
		m["error"] = s
		return m
	}
	if s, ok := _grundyHTML(v); ok {
		m["text/html"] = s
	}
	if s, ok := _grundyMarkdown(v); ok {
		m["text/markdown"] = s
	}
	if s, ok := _grundyLaTeX(v); ok {
		m["text/latex"] = s
	}
	if b, err, ok := _grundySVG(v); ok {
		if err == nil {
			m["image/svg+xml"] = b
		} else {
			m["text/plain"] = "SVG failed: " + err.Error()
		}
	}
	if b, err, ok := _grundyPNG(v); ok {
		if err == nil {
			m["image/png"] = b
		} else {
			m["text/plain"] = "PNG failed: " + err.Error()
		}
	}
	if b, err, ok := _grundyJPEG(v); ok && err == nil {
		m["image/jpeg"] = b
	}
	if s, ok := _grundyString(v); ok {
		if _, have := m["text/plain"]; !have {
			m["text/plain"] = s
		}
	}
	return m
}

func _grundyShow(vs ...any) {
	parts := make([]map[string]any, len(vs))
	for i, v := range vs {
		parts[i] = _grundyParts(v)
	}
	grundyrt.Show(vs, parts)
}

func _grundyDisplay(vs ...any) {
	for _, v := range vs {
		if v == nil && len(vs) > 1 {
			continue
		}
		grundyrt.Display(v, _grundyParts(v))
	}
}

func _grundyRender(v any) display.Bundle { return grundyrt.Render(v, _grundyParts(v)) }
