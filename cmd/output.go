package cmd

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// outputWriter wraps standard output and remembers its first write error,
// so that every subcommand and format ends in exit 2 when its output could
// not be written (a full disk, a closed pipe), whether or not the code that
// wrote it checked the error.
type outputWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err // say it once; do not keep hammering a full disk
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// failure is the first write error, or nil.
func (o *outputWriter) failure() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// outputFailedError is the one line printed when standard output failed.
func outputFailedError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "no space left on device", not "write /dev/stdout: …"
	}
	return UsageErrorf("cannot write the output: %v; check the disk or the command reading idemcheck's output", err)
}

// catchSIGPIPE makes a write to a closed pipe on stdout fail with EPIPE,
// which is reported as exit 2, instead of killing idemcheck silently
// before it stops the processes it started. Catching (not ignoring) keeps
// the default disposition for the commands we start.
func catchSIGPIPE() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}
