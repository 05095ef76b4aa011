package restarttest

import "github.com/idemcheck/idemcheck/internal/procgroup"

// maxErrorText is how much of a database or server error text, or of a
// query, a message shows: PostgreSQL quotes the offending value whole
// ("invalid input syntax for type integer: \"…\""), and a setup line of
// 100 MB must not become an error message of 100 MB.
const maxErrorText = 300

// shortError is an error whose text is shortened; errors.As still finds
// what it wraps.
type shortError struct{ err error }

func (e shortError) Error() string { return procgroup.Shorten(e.err.Error(), maxErrorText) }
func (e shortError) Unwrap() error { return e.err }

// shortened wraps err so that its text is at most about maxErrorText bytes.
func shortened(err error) error {
	if err == nil {
		return nil
	}
	return shortError{err}
}
