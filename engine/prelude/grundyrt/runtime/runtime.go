// Package runtime holds the run-time errors the engine raises where Go's
// runtime would have raised its own (the interpreter raised reflect's, or
// none): named as the runtime names them, so that %T of a recovered value
// prints what Go prints (runtime.boundsError, *runtime.TypeAssertionError)
// and a cell's r.(*runtime.TypeAssertionError) can hold (the
// compatibility passes write the type as this package's). The runtime's
// own types cannot be made: their fields are unexported and their
// messages come from the runtime's types, not the interpreter's.
package runtime

// errorString is a runtime error with a fixed message (a nil
// dereference, an integer divide by zero, a negative shift, makeslice).
type errorString string

func (e errorString) Error() string { return "runtime error: " + string(e) }
func (e errorString) RuntimeError() {}

// plainError is a runtime error whose message has no "runtime error: "
// (makechan's).
type plainError string

func (e plainError) Error() string { return string(e) }
func (e plainError) RuntimeError() {}

// boundsError is an index, slice or conversion out of range; the engine
// writes its message whole.
type boundsError string

func (e boundsError) Error() string { return "runtime error: " + string(e) }
func (e boundsError) RuntimeError() {}

// TypeAssertionError is a failed type assertion, as the runtime's
// *TypeAssertionError.
type TypeAssertionError struct{ msg string }

func (e *TypeAssertionError) Error() string { return e.msg }
func (*TypeAssertionError) RuntimeError()   {}

// ErrorString is the runtime's error for msg ("runtime error: " msg).
func ErrorString(msg string) error { return errorString(msg) }

// PlainError is the runtime's error msg, printed as it is.
func PlainError(msg string) error { return plainError(msg) }

// BoundsError is the runtime's error for an index or slice out of range
// ("runtime error: " msg).
func BoundsError(msg string) error { return boundsError(msg) }

// NewTypeAssertionError is a failed assertion's error, msg its whole text
// ("interface conversion: ...").
func NewTypeAssertionError(msg string) error { return &TypeAssertionError{msg} }
