// Package errs holds errors.Is and errors.As without reflection.
//
// The standard ones link internal/reflectlite into the module (about 20 KB of
// the TinyGo build, decision 009); the core's errors form simple chains, one
// Unwrap() error at a time, so a loop over the chain and a type parameter do
// the same work. It must never hold anything else.
package errs

// Is reports whether target is err or an error err wraps.
func Is(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		w, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = w.Unwrap()
	}
	return false
}

// As is the first error in err's chain that is a T.
func As[T error](err error) (T, bool) {
	for err != nil {
		if t, ok := err.(T); ok {
			return t, true
		}
		w, ok := err.(interface{ Unwrap() error })
		if !ok {
			break
		}
		err = w.Unwrap()
	}
	var zero T
	return zero, false
}
