// Package errors declares, for the type oracle, the generic functions of
// the standard errors package, which yaegi's symbol tables cannot hold:
// the oracle adds them to the package its table makes, and a cell's calls
// run the interpreted helpers that stand in for them (see
// helpers/generic.go and compat's genericStd).
package errors

// AsType is errors.AsType's declaration (Go 1.26).
func AsType[E error](err error) (E, bool) {
	var e E
	return e, false
}
