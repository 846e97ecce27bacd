package symbols

import (
	"encoding"
	"reflect"
)

// yaegi converts a value of a cell's type to a native interface through
// a wrapper struct its tables hold under "_Name" (a field per method, a
// method calling it); zstd_newer.go lists the interfaces Go added since
// yaegi's tables were made without one, and a value converted to them
// was nil (var ta encoding.TextAppender = Heap(12); ta.AppendText(...)
// panicked with a nil dereference). These are the wrappers of those a
// cell may implement.
func init() {
	addStd("encoding/encoding", map[string]reflect.Value{
		"_BinaryAppender": reflect.ValueOf((*_encoding_BinaryAppender)(nil)),
		"_TextAppender":   reflect.ValueOf((*_encoding_TextAppender)(nil)),
	})
}

var (
	_ encoding.BinaryAppender = _encoding_BinaryAppender{}
	_ encoding.TextAppender   = _encoding_TextAppender{}
)

// _encoding_BinaryAppender is the wrapper of encoding.BinaryAppender (Go 1.24).
type _encoding_BinaryAppender struct {
	IValue        interface{}
	WAppendBinary func(b []byte) ([]byte, error)
}

func (W _encoding_BinaryAppender) AppendBinary(b []byte) ([]byte, error) { return W.WAppendBinary(b) }

// _encoding_TextAppender is the wrapper of encoding.TextAppender (Go 1.24).
type _encoding_TextAppender struct {
	IValue      interface{}
	WAppendText func(b []byte) ([]byte, error)
}

func (W _encoding_TextAppender) AppendText(b []byte) ([]byte, error) { return W.WAppendText(b) }
