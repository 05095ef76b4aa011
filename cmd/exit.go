package cmd

import (
	"errors"
	"fmt"
)

// Exit codes, documented in docs/ci.md and shared by every subcommand.
const (
	ExitOK      = 0 // nothing found, keys equal, checks passed
	ExitFinding = 1 // a finding, a mismatch, a failed derivation or check
	ExitUsage   = 2 // bad flags or input, or an environment error
)

// ExitError carries the exit code a run function wants. A nil Err means the
// command has already said everything (e.g. printed its findings).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// UsageErrorf reports bad flags, bad input or a broken environment (exit 2).
func UsageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// FindingErrorf reports a finding or a failed derivation (exit 1).
func FindingErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitFinding, Err: fmt.Errorf(format, args...)}
}

// ErrFindings ends a command that already printed its findings (exit 1).
var ErrFindings = &ExitError{Code: ExitFinding}

// exitCode maps an error returned by a command to the process exit code.
// Anything that is not an ExitError is an environment error.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitUsage
}
