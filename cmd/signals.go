package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// stopSignals end a subcommand that started processes: Ctrl-C, kill, a
// closed terminal. restart-test also takes Ctrl-\ (SIGQUIT), which would
// otherwise dump goroutines and leave its handlers and schema behind.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// interruption is a run that stops what it started when a stop signal
// arrives. Its context is cancelled by the first signal; the handler stays
// installed until stop, so a second Ctrl-C cannot cut the cleanup short.
type interruption struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	quit   chan struct{}

	mu     sync.Mutex
	caught os.Signal
}

// onSignals returns an interruption whose context, derived from parent, is
// cancelled by any of sigs (stopSignals when none).
func onSignals(parent context.Context, sigs ...os.Signal) *interruption {
	if len(sigs) == 0 {
		sigs = stopSignals
	}
	ctx, cancel := context.WithCancel(parent)
	in := &interruption{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 4), quit: make(chan struct{})}
	signal.Notify(in.ch, sigs...)
	go func() {
		for {
			select {
			case sig := <-in.ch:
				in.mu.Lock()
				if in.caught == nil {
					in.caught = sig
				}
				in.mu.Unlock()
				cancel()
			case <-in.quit:
				return
			}
		}
	}()
	return in
}

// signal is the first stop signal received, or nil.
func (in *interruption) signal() os.Signal {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.caught
}

// stop removes the signal handler and kills any process that escaped the
// groups we started and is still around.
func (in *interruption) stop() {
	signal.Stop(in.ch)
	close(in.quit)
	in.cancel()
	procgroup.KillStrays()
}

// err turns a run stopped by a signal into exit 128+N with one line saying
// what was stopped; it returns nil when no signal came.
func (in *interruption) err(stopped string) error {
	sig := in.signal()
	if sig == nil {
		return nil
	}
	n := 0
	if s, ok := sig.(syscall.Signal); ok {
		n = int(s)
	}
	return &ExitError{Code: 128 + n, Err: fmt.Errorf("interrupted by %s: %s", signalName(sig), stopped)}
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}
