package helpers

import "grundy/engine/prelude/grundyrt"

// _grundyAsError converts a value to error. yaegi v0.16.1's own
// conversion of a struct value (a value-receiver Error method) keeps only
// its last field, so err.(T), type switches and errors.As lose it. An
// interpreted interface keeps the whole value: its Error method value is
// bound correctly, and the runtime builds the wrapper from both.
func _grundyAsError(v any) error {
	if grundyrt.IsNativeError(v) {
		return grundyrt.NativeError(v)
	}
	switch e := v.(type) {
	case _grundyError:
		return grundyrt.WrapError(v, e.Error, _grundyErrorProto)
	}
	return grundyrt.NativeError(v)
}

// _grundyAsErrorFunc converts a value with an Error method the caller
// calls to error: yaegi v0.16.1 finds no method on a pointer to a struct
// type whose Error has a value receiver, so _grundyAsError made it a nil
// error.
func _grundyAsErrorFunc(v any, msg func() string) error {
	return grundyrt.WrapError(v, msg, _grundyErrorProto)
}

// _grundyErrorAssert is v.(error) in its comma-ok form.
func _grundyErrorAssert(v any) (error, bool) {
	if v == nil {
		return nil, false
	}
	if grundyrt.IsNativeError(v) {
		return grundyrt.NativeError(v), true
	}
	if grundyrt.BasicBox(v) {
		return grundyrt.CellError(v, _grundyErrorProto)
	}
	if grundyrt.LacksError(v) {
		return nil, false // before the switch, which may take it for one
	}
	switch e := v.(type) {
	case _grundyError:
		return grundyrt.WrapError(v, e.Error, _grundyErrorProto), true
	}
	return grundyrt.CellError(v, _grundyErrorProto)
}

// _grundyErrorMust is x.(error) in its one-value form: it panics as Go
// does when x is not an error. (Not through _grundyErrorAssert: an
// interpreted call loses the dynamic type of its any argument.)
func _grundyErrorMust(v any) error {
	if v != nil && grundyrt.IsNativeError(v) {
		return grundyrt.NativeError(v)
	}
	if grundyrt.LacksError(v) {
		panic(grundyrt.AssertionError(v, "error", "Error"))
	}
	if !grundyrt.BasicBox(v) {
		switch e := v.(type) {
		case _grundyError:
			return grundyrt.WrapError(v, e.Error, _grundyErrorProto)
		}
	}
	if e, ok := grundyrt.CellError(v, _grundyErrorProto); ok {
		return e
	}
	panic(grundyrt.AssertionError(v, "error", "Error"))
}

// _grundyErrorProto is a wrapper yaegi built: WrapError builds its own of
// the same type.
var _grundyErrorProto = _grundyToError(_grundyProtoError{})

type _grundyProtoError struct{}

func (_grundyProtoError) Error() string { return "" }

func _grundyToError(e error) error { return e }
