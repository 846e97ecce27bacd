// Package display shows rich output from cells: any value by the display
// convention, raw HTML and Markdown, and handles whose output is updated in
// place, such as progress bars. The convention is one list of methods
// (Methods: a value's Bundle, HTML, Markdown, LaTeX, SVG, PNG, JPEG and
// JSON forms, filtered by MIMETypes, with Error or String as text) turned
// into one Bundle type by FromParts, for the library's types and for the
// types cells declare alike (the engine finds the latter's methods and
// hands over their Parts). The engine installs a Sink around each cell;
// outside a session (a plain Go program) output falls back to text on
// stdout.
package display

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"os"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Bundle is a MIME bundle: MIME type -> data. Text types hold a string,
// image/png and image/jpeg base64 text, application/json any JSON value.
type Bundle map[string]any

// The display convention: a value shows in every form it has a method for.
type (
	// HTMLer values show as text/html.
	HTMLer interface{ HTML() string }
	// Markdowner values show as text/markdown.
	Markdowner interface{ Markdown() string }
	// LaTeXer values show as text/latex.
	LaTeXer interface{ LaTeX() string }
	// SVGer values show as image/svg+xml.
	SVGer interface{ SVG() ([]byte, error) }
	// PNGer values show as image/png.
	PNGer interface{ PNG() ([]byte, error) }
	// JPEGer values show as image/jpeg.
	JPEGer interface{ JPEG() ([]byte, error) }
	// JSONer values show as application/json.
	JSONer interface{ JSON() any }
	// Bundler values give their whole MIME bundle.
	Bundler interface{ Bundle() Bundle }
	// MIMETyper values choose which of their forms show (text/plain
	// always does): a figure shows as PNG, keeping notebooks small, and
	// as SVG too only when asked.
	MIMETyper interface{ MIMETypes() []string }
)

// Sink receives display output. The engine installs one around each cell.
type Sink interface {
	// Display shows data; with a non-empty id and update true it replaces
	// the earlier display with that id.
	Display(data Bundle, metadata map[string]any, id string, update bool)
	// Clear clears the cell's output (wait: when new output arrives).
	Clear(wait bool)
}

var sink atomic.Pointer[sinkBox]

type sinkBox struct{ s Sink }

// Install makes s receive displays until restore is called.
func Install(s Sink) (restore func()) {
	var nb *sinkBox
	if s != nil {
		nb = &sinkBox{s: s}
	}
	prev := sink.Swap(nb)
	return func() { sink.Store(prev) }
}

func current() Sink {
	if b := sink.Load(); b != nil {
		return b.s
	}
	return stdoutSink{}
}

// stdoutSink is used outside a session: text only.
type stdoutSink struct{}

func (stdoutSink) Display(data Bundle, _ map[string]any, _ string, _ bool) {
	if t, ok := data["text/plain"].(string); ok {
		fmt.Fprintln(os.Stdout, t)
	}
}
func (stdoutSink) Clear(bool) {}

// Methods are the display convention's methods, in the order their forms
// are added to a bundle (a later one wins for a MIME type two give), then
// the two that give text/plain.
var Methods = []string{"MIMETypes", "Bundle", "HTML", "Markdown", "LaTeX", "SVG", "PNG", "JPEG", "JSON", "Error", "String"}

// MIME is the MIME type each form-giving method gives.
var MIME = map[string]string{
	"HTML": "text/html", "Markdown": "text/markdown", "LaTeX": "text/latex", "SVG": "image/svg+xml",
	"PNG": "image/png", "JPEG": "image/jpeg", "JSON": "application/json",
}

// Wanted reports whether a value whose MIMETypes method returned types
// (nil: it has none) shows the form method gives; a method that is not
// wanted is not called.
func Wanted(types []string, method string) bool {
	mime, ok := MIME[method]
	return types == nil || !ok || slices.Contains(types, mime)
}

// Parts are what a value's display methods returned, by method name. Who
// finds them depends on who can see the methods: PartsOf asserts the
// interfaces above, for compiled types; the engine's interpreted helpers
// find those of the types cells declare (which native code cannot see) and
// hand their Parts to FromParts, so that both display alike.
type Parts map[string]Part

// Part is one method's result: a string (HTML, Markdown, LaTeX, Error,
// String), bytes (SVG, PNG, JPEG), a Bundle, a []string (MIMETypes) or any
// JSON value, with the method's error.
type Part struct {
	Value any
	Err   error
}

// TextPart names the part that holds what fmt's %v prints of a value
// whose methods native code cannot see (a value of a type a cell
// declared), which the engine computes.
const TextPart = "Text"

// printed is what fmt prints for v by its String method, which call
// makes: a panic in it is caught as fmt catches it, "<nil>" for a nil
// pointer receiver (a nil *big.Rat's String follows it) and
// "%!v(PANIC=String method: ...)" otherwise.
func printed(v any, call func() string) (s string) {
	defer func() {
		if r := recover(); r != nil {
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
				s = "<nil>"
				return
			}
			s = fmt.Sprintf("%%!v(PANIC=String method: %v)", r)
		}
	}()
	return call()
}

// PartsOf calls the display methods v has.
func PartsOf(v any) Parts {
	p := Parts{}
	var types []string
	if r, ok := v.(MIMETyper); ok {
		types = r.MIMETypes()
		p["MIMETypes"] = Part{Value: types}
	}
	if r, ok := v.(Bundler); ok {
		p["Bundle"] = Part{Value: r.Bundle()}
	}
	if r, ok := v.(HTMLer); ok && Wanted(types, "HTML") {
		p["HTML"] = Part{Value: r.HTML()}
	}
	if r, ok := v.(Markdowner); ok && Wanted(types, "Markdown") {
		p["Markdown"] = Part{Value: r.Markdown()}
	}
	if r, ok := v.(LaTeXer); ok && Wanted(types, "LaTeX") {
		p["LaTeX"] = Part{Value: r.LaTeX()}
	}
	if r, ok := v.(SVGer); ok && Wanted(types, "SVG") {
		data, err := r.SVG()
		p["SVG"] = Part{Value: data, Err: err}
	}
	if r, ok := v.(PNGer); ok && Wanted(types, "PNG") {
		data, err := r.PNG()
		p["PNG"] = Part{Value: data, Err: err}
	}
	if r, ok := v.(JPEGer); ok && Wanted(types, "JPEG") {
		data, err := r.JPEG()
		p["JPEG"] = Part{Value: data, Err: err}
	}
	if r, ok := v.(JSONer); ok && Wanted(types, "JSON") {
		p["JSON"] = Part{Value: r.JSON()}
	}
	switch x := v.(type) {
	case error:
		p["Error"] = Part{Value: x.Error()} // (a panic in it is the cell's: the error is shown, not printed)
	case fmt.Stringer:
		p["String"] = Part{Value: printed(v, func() string { return stringed(x) })}
	}
	return p
}

// stringed is x as fmt's %v prints it: by its Format when it has one
// (a *big.Float's String rounds to 10 digits, its %v does not), else by
// String.
func stringed(x fmt.Stringer) string {
	if f, ok := x.(fmt.Formatter); ok {
		return fmt.Sprintf("%v", f)
	}
	return x.String()
}

// Render returns the bundle v shows as. Every bundle has text/plain.
func Render(v any) Bundle {
	if b, ok := v.(Bundle); ok {
		return b
	}
	return FromParts(v, PartsOf(v))
}

// FromParts is the bundle of a value whose display methods returned
// parts: every form it has a method for (those MIMETypes lists, when it
// has that method), an image as PNG, and text/plain always: the first of
// an SVG or PNG method's error, the fmt text (what fmt prints of a
// value whose methods native code cannot see), Error, String, or Go's %v.
func FromParts(v any, parts Parts) Bundle {
	b := Bundle{}
	types, _ := parts["MIMETypes"].Value.([]string)
	want := func(mime string) bool { return types == nil || slices.Contains(types, mime) }
	var failed string
	str := func(name, mime string) {
		if p, ok := parts[name]; ok && want(mime) {
			s, _ := p.Value.(string)
			b[mime] = s
		}
	}
	data := func(name, mime string, base64ed bool) {
		p, ok := parts[name]
		if !ok || !want(mime) {
			return
		}
		if p.Err != nil {
			if failed == "" && name != "JPEG" {
				failed = name + " failed: " + p.Err.Error()
			}
			return
		}
		raw, _ := p.Value.([]byte)
		if base64ed {
			b[mime] = base64.StdEncoding.EncodeToString(raw)
		} else {
			b[mime] = string(raw)
		}
	}
	if p, ok := parts["Bundle"]; ok {
		bb, _ := p.Value.(Bundle)
		for k, x := range bb {
			if want(k) || k == "text/plain" {
				b[k] = x
			}
		}
	}
	str("HTML", "text/html")
	str("Markdown", "text/markdown")
	str("LaTeX", "text/latex")
	data("SVG", "image/svg+xml", false)
	data("PNG", "image/png", true)
	data("JPEG", "image/jpeg", true)
	if p, ok := parts["JSON"]; ok && want("application/json") {
		b["application/json"] = p.Value
	}
	if img, ok := v.(image.Image); ok && b["image/png"] == nil {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err == nil {
			b["image/png"] = base64.StdEncoding.EncodeToString(buf.Bytes())
		}
	}
	switch {
	case failed != "":
		b["text/plain"] = failed
	case b["text/plain"] != nil:
	case parts[TextPart].Value != nil:
		b["text/plain"] = parts[TextPart].Value
	case parts["Error"].Value != nil:
		b["text/plain"] = parts["Error"].Value
	case parts["String"].Value != nil:
		b["text/plain"] = parts["String"].Value
	default:
		b["text/plain"] = Text(v)
	}
	return b
}

// Text is v's text/plain form: String() or Error() when it has one, else
// Go's %v (strings as they are).
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case error:
		return x.Error()
	case fmt.Stringer:
		return stringed(x)
	case string:
		return x
	}
	return fmt.Sprintf("%v", v)
}

// Show displays each value by the convention. Among several values a nil
// is skipped, so Show(plots.Heatmap(t, "a b 0")) shows the figure, or
// the error, and not a stray <nil>.
func Show(vs ...any) {
	for _, v := range vs {
		if v == nil && len(vs) > 1 {
			continue
		}
		current().Display(Render(v), nil, "", false)
	}
}

// HTML displays raw HTML.
func HTML(s string) { Show(Bundle{"text/html": s, "text/plain": stripTags(s)}) }

// Markdown displays Markdown text.
func Markdown(s string) { Show(Bundle{"text/markdown": s, "text/plain": s}) }

// LaTeX displays a LaTeX formula (with its $ delimiters).
func LaTeX(s string) { Show(Bundle{"text/latex": s, "text/plain": s}) }

// SVG displays an SVG document.
func SVG(doc string) { Show(Bundle{"image/svg+xml": doc, "text/plain": "[SVG image]"}) }

// PNG displays PNG bytes.
func PNG(data []byte) {
	Show(Bundle{"image/png": base64.StdEncoding.EncodeToString(data), "text/plain": "[PNG image]"})
}

// Clear clears the cell's output; with wait, only once new output comes
// (which avoids flicker in animations).
func Clear(wait bool) { current().Clear(wait) }

// Handle is one display that can be replaced in place and cleared, e.g. a
// live-updating table or a progress bar.
type Handle struct {
	id    string
	mu    sync.Mutex
	shown bool
}

var handleSeq atomic.Int64

// New returns a handle with nothing shown yet; the first Update shows it.
func New() *Handle {
	return &Handle{id: "grundy-" + strconv.FormatInt(int64(os.Getpid()), 36) + "-" + strconv.FormatInt(handleSeq.Add(1), 10)}
}

// ID is the Jupyter display_id of the handle.
func (h *Handle) ID() string { return h.id }

// Update shows v in place of what the handle showed before.
func (h *Handle) Update(v any) {
	h.mu.Lock()
	update := h.shown
	h.shown = true
	h.mu.Unlock()
	current().Display(Render(v), nil, h.id, update)
}

// HTML shows raw HTML in the handle.
func (h *Handle) HTML(s string) { h.Update(Bundle{"text/html": s, "text/plain": stripTags(s)}) }

// Markdown shows Markdown in the handle.
func (h *Handle) Markdown(s string) { h.Update(Bundle{"text/markdown": s, "text/plain": s}) }

// Text shows plain text in the handle.
func (h *Handle) Text(s string) { h.Update(Bundle{"text/plain": s}) }

// Clear empties the handle's display (it stays in place for later updates).
func (h *Handle) Clear() {
	h.mu.Lock()
	shown := h.shown
	h.mu.Unlock()
	if shown {
		current().Display(Bundle{"text/plain": ""}, nil, h.id, true)
	}
}

// stripTags gives a rough text form of HTML for text-only frontends.
func stripTags(s string) string {
	var b bytes.Buffer
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
