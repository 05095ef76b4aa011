package normcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// maxStderrTail is how much of a failing command's stderr an error shows.
const maxStderrTail = 400

// maxKeyOutput bounds what is kept of a command's stdout: a key is short,
// and a runaway command must not exhaust memory.
const maxKeyOutput = 64 << 10

// KeyCommand is the user's own key function: a shell command that reads a
// payload on stdin and prints its key on stdout.
type KeyCommand struct {
	Command string        // run with sh -c
	Timeout time.Duration // per run; the whole process group is killed after it
}

// Normalizer feeds each spelling to the command inside payload and takes
// its output as the key. Its errors end the check.
func (k KeyCommand) Normalizer(payload *PayloadTemplate, field string) *Normalizer {
	return &Normalizer{
		Describe: fmt.Sprintf("command %s (field %s)", strconv.Quote(k.Command), field),
		Info:     Info{Exec: k.Command, Field: field},
		Normalize: func(ctx context.Context, spelling string) (string, error) {
			key, err := k.Key(ctx, payload.With(spelling))
			if err != nil && ctx.Err() == nil {
				err = &CommandError{Err: err}
			}
			return key, err
		},
		Audits:   true,
		FailFast: true,
	}
}

// CommandError is a key command that failed on one spelling. It names the
// spelling by the value's position and the spelling's form, not by its
// text: a value given by mistake (a secret) stays out of logs.
type CommandError struct {
	Value int    // 1-based position of the value among those checked
	Form  string // the spelling's form (pixkey.Spelling.Label) or audit check
	Err   error
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("key command on spelling %q of value %d: %v", e.Form, e.Value, e.Err)
}

func (e *CommandError) Unwrap() error { return e.Err }

// Key runs the command in its own process group, feeds it stdin and
// returns its trimmed stdout, as printed (callers showing it should make
// it printable). A command that exits non-zero, outlives the timeout,
// leaves a process holding its output or prints nothing is an error
// carrying the tail of its stderr. Whatever the command started, in its
// group or escaped from it, is killed when it exits or ctx ends; then the
// error is ctx's.
func (k KeyCommand) Key(ctx context.Context, stdin []byte) (string, error) {
	c := exec.Command("sh", "-c", k.Command)
	c.Stdin = bytes.NewReader(stdin)
	stdout := procgroup.NewTail(maxKeyOutput)
	stderr := procgroup.NewTail(4 * maxStderrTail)
	c.Stdout, c.Stderr = stdout, stderr
	g, err := procgroup.Start(c)
	if err != nil {
		return "", fmt.Errorf("cannot start sh: %v", err)
	}
	var timedOut atomic.Bool
	timer := time.AfterFunc(k.Timeout, func() {
		timedOut.Store(true)
		g.Kill()
	})
	select {
	case <-g.Done():
	case <-ctx.Done():
		g.Kill()
	}
	err = g.Wait()
	timer.Stop()
	tail := stderrTail(stderr.String())
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case timedOut.Load():
		return "", fmt.Errorf("did not finish within %s; killed its process group%s", k.Timeout, tail)
	case g.OutputHeld() || errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but a process it started kept its output
		// (or stdin) open: what we read may not be the whole key.
		return "", fmt.Errorf("exited but left a background process holding its stdout or stderr open; a key command must finish before it exits%s", tail)
	case err != nil:
		return "", fmt.Errorf("%v%s", err, tail)
	case stdout.Truncated():
		return "", fmt.Errorf("printed more than %d bytes on stdout, which is no key%s", maxKeyOutput, tail)
	}
	key := strings.TrimSpace(stdout.String())
	if key == "" {
		return "", fmt.Errorf("printed no key on stdout%s", tail)
	}
	return key, nil
}

// stderrTail returns the last of a command's stderr, printable and on one
// line, ready to append to an error, or "".
func stderrTail(s string) string {
	s = procgroup.OneLine(s)
	if s == "" {
		return ""
	}
	if len(s) > maxStderrTail {
		s = "…" + strings.ToValidUTF8(s[len(s)-maxStderrTail:], "")
	}
	return "; stderr: " + s
}
