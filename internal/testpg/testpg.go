// Package testpg is the embedded PostgreSQL that a package's tests share:
// started on first use from the installed server binaries, stopped by
// TestMain. Each restart-test run keeps to a schema of its own, so the
// tests that are not about the embedded server itself share one, in
// parallel, instead of an initdb each.
package testpg

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/idemcheck/idemcheck/restarttest/pgembed"
)

// Shared is a server started on first use. The zero value is ready.
type Shared struct {
	once sync.Once
	pg   *pgembed.Server
	err  error
}

// DSN starts the server if need be and returns its DSN.
func (s *Shared) DSN() (string, error) {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s.pg, s.err = pgembed.Start(ctx)
	})
	if s.err != nil {
		return "", fmt.Errorf("start the tests' embedded PostgreSQL: %v", s.err)
	}
	return s.pg.DSN(), nil
}

// Stop stops the server, if it was started.
func (s *Shared) Stop() {
	if s.pg != nil {
		s.pg.Stop()
	}
}
