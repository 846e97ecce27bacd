package grundyrt

import (
	"flag"
	"io"
	"reflect"
)

// Composed wrappers: for a cell's value handed to native code as an
// interface, wrappers with the optional methods the standard library
// looks for by assertion. yaegi v0.16.1 hands native code a value of a
// cell type inside a wrapper struct that has only the methods of the
// parameter's interface (interp/run.go:1049, genInterfaceWrapper), unless
// one of the composed wrappers listed for that interface has all of a
// method set the type has (interp/use.go:74, getWrapper). Its lists know
// ReadFrom and WriteTo only, so io.WriteString called Write where Go calls
// the cell's WriteString, fmt.Fscan read a cell's io.RuneScanner a byte
// at a time and lost the rune after each value where Go unreads it, and
// flag parsing gave a cell's boolean flag (IsBoolFlag) the next argument
// as its value.
type Composed struct {
	Key      string // the interface's wrapper in yaegi's symbols: "io/io", "_Writer"
	Wrapper  string
	Wrappers []reflect.Type
}

// ComposedWrappers replaces yaegi's lists: for each interface, every
// combination of its optional methods, the largest first (getWrapper takes
// the first whose methods the cell's type has all of).
func ComposedWrappers() []Composed {
	return []Composed{
		{"io/io", "_Writer", []reflect.Type{
			reflect.TypeFor[writerReadFromWriteString](),
			reflect.TypeFor[writerReadFrom](),
			reflect.TypeFor[writerWriteString](),
		}},
		{"io/io", "_Reader", []reflect.Type{
			reflect.TypeFor[readerRuneScannerWriteTo](),
			reflect.TypeFor[readerRuneScanner](),
			reflect.TypeFor[readerWriteTo](),
		}},
		{"flag/flag", "_Value", []reflect.Type{
			reflect.TypeFor[flagBoolValue](),
		}},
	}
}

// WriteOnce writes s to w as fmt's Fprint functions do, with one Write: a
// cell's writer (in a wrapper, which may have its WriteString) gets
// Write, as in Go; a native one gets s without a copy to []byte.
func WriteOnce(w io.Writer, s string) (int, error) {
	if t := reflect.TypeOf(w); t != nil && WrapperShape(t) {
		return w.Write([]byte(s))
	}
	return io.WriteString(w, s)
}

// Field 0 holds the interpreted value, each other field a method: yaegi
// fills them by name (the name without its first letter), and unwraps a
// wrapper by its field IValue when the value comes back to a cell.

type writerReadFromWriteString struct {
	IValue       any
	WWrite       func(p []byte) (int, error)
	WReadFrom    func(r io.Reader) (int64, error)
	WWriteString func(s string) (int, error)
}

func (w writerReadFromWriteString) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w writerReadFromWriteString) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }
func (w writerReadFromWriteString) WriteString(s string) (int, error)   { return w.WWriteString(s) }

type writerReadFrom struct {
	IValue    any
	WWrite    func(p []byte) (int, error)
	WReadFrom func(r io.Reader) (int64, error)
}

func (w writerReadFrom) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w writerReadFrom) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }

type writerWriteString struct {
	IValue       any
	WWrite       func(p []byte) (int, error)
	WWriteString func(s string) (int, error)
}

func (w writerWriteString) Write(p []byte) (int, error)       { return w.WWrite(p) }
func (w writerWriteString) WriteString(s string) (int, error) { return w.WWriteString(s) }

type readerRuneScannerWriteTo struct {
	IValue      any
	WRead       func(p []byte) (int, error)
	WReadRune   func() (rune, int, error)
	WUnreadRune func() error
	WWriteTo    func(w io.Writer) (int64, error)
}

func (r readerRuneScannerWriteTo) Read(p []byte) (int, error)         { return r.WRead(p) }
func (r readerRuneScannerWriteTo) ReadRune() (rune, int, error)       { return r.WReadRune() }
func (r readerRuneScannerWriteTo) UnreadRune() error                  { return r.WUnreadRune() }
func (r readerRuneScannerWriteTo) WriteTo(w io.Writer) (int64, error) { return r.WWriteTo(w) }

type readerRuneScanner struct {
	IValue      any
	WRead       func(p []byte) (int, error)
	WReadRune   func() (rune, int, error)
	WUnreadRune func() error
}

func (r readerRuneScanner) Read(p []byte) (int, error)   { return r.WRead(p) }
func (r readerRuneScanner) ReadRune() (rune, int, error) { return r.WReadRune() }
func (r readerRuneScanner) UnreadRune() error            { return r.WUnreadRune() }

type readerWriteTo struct {
	IValue   any
	WRead    func(p []byte) (int, error)
	WWriteTo func(w io.Writer) (int64, error)
}

func (r readerWriteTo) Read(p []byte) (int, error)         { return r.WRead(p) }
func (r readerWriteTo) WriteTo(w io.Writer) (int64, error) { return r.WWriteTo(w) }

type flagBoolValue struct {
	IValue      any
	WIsBoolFlag func() bool
	WSet        func(s string) error
	WString     func() string
}

func (v flagBoolValue) IsBoolFlag() bool   { return v.WIsBoolFlag() }
func (v flagBoolValue) Set(s string) error { return v.WSet(s) }
func (v flagBoolValue) String() string     { return v.WString() }

// The wrappers are the interfaces'.
var (
	_ flag.Value = flagBoolValue{}
	_ interface {
		io.ReaderFrom
		io.StringWriter
	} = writerReadFromWriteString{}
	_ interface {
		io.RuneScanner
		io.WriterTo
	} = readerRuneScannerWriteTo{}
)
