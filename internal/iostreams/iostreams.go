// Package iostreams carries the standard streams a command writes to, so
// commands can be run and tested without a terminal (as in cli/cli).
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strconv"

	"golang.org/x/term"

	"github.com/idemcheck/idemcheck/internal/redact"
)

// IOStreams are the streams of one command invocation. Data goes to Out;
// progress and diagnostics go to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// Secrets, when set, are hidden from Out and ErrOut; a command that
	// reads a secret adds it with HideSecret.
	Secrets *redact.Secrets

	stdoutTTY bool
	stderrTTY bool
	noColor   bool
	width     int // columns to wrap human output to; 0 leaves lines as they are
}

// System returns the process's own streams, detecting terminals and NO_COLOR.
func System() *IOStreams {
	_, noColor := os.LookupEnv("NO_COLOR")
	return &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
		noColor:   noColor || os.Getenv("TERM") == "dumb",
		width:     outputWidth(os.Stdout),
	}
}

// outputWidth is the width human output on out is wrapped to: COLUMNS when
// it is set to a number (on a terminal or not, as less and ls do), else
// the terminal's width, else 0: output to a pipe or file keeps its lines
// whole, so that grep and diff see one finding per line.
func outputWidth(out *os.File) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if !isTerminal(out) {
		return 0
	}
	if w, _, err := term.GetSize(int(out.Fd())); err == nil && w > 0 {
		return w
	}
	return 0
}

// Width is the number of columns human output on Out is wrapped to; 0
// means not to wrap.
func (s *IOStreams) Width() int { return s.width }

// SetWidth sets the columns to wrap to (0: do not wrap); for tests.
func (s *IOStreams) SetWidth(n int) { s.width = n }

// Test returns streams backed by buffers: stdin, stdout, stderr.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// SetStdoutTTY pretends (or denies) that stdout is a terminal; for tests.
func (s *IOStreams) SetStdoutTTY(tty bool) { s.stdoutTTY = tty }

// SetStderrTTY pretends (or denies) that stderr is a terminal; for tests.
func (s *IOStreams) SetStderrTTY(tty bool) { s.stderrTTY = tty }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal; progress lines are only
// drawn there.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// ColorEnabled reports whether human output on stdout should be styled.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.noColor }

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// HideSecret makes sure secret never appears in the streams' output (when
// they redact; streams of tests may not).
func (s *IOStreams) HideSecret(secret string) {
	if s.Secrets != nil {
		s.Secrets.Add(secret)
	}
}
