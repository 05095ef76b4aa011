package cmd

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/idemcheck/idemcheck/restarttest"
)

// TestMain makes "no database configured" true for every test: a DSN in
// the environment would change which database restart-test picks. After
// the tests it stops the shared embedded server (sharedServer) and removes
// the idemcheck executable the lint tests give go vet as its -vettool
// (testenv.Idemcheck), so lint is tested end to end through the real go vet
// protocol.
func TestMain(m *testing.M) {
	for _, v := range []string{"DATABASE_URL", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"} {
		os.Setenv(v, "")
	}
	code := m.Run()
	shared.stop()
	testenv.RemoveIdemcheck()
	os.Exit(code)
}

// sharedServer is one embedded PostgreSQL for the restart-test tests that
// are not about the embedded server itself: each run keeps to a schema of
// its own, so they share it, in parallel, instead of an initdb each.
type sharedServer struct {
	once sync.Once
	pg   *restarttest.Embedded
	err  error
}

var shared sharedServer

func (s *sharedServer) dsn() (string, error) {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s.pg, s.err = restarttest.StartEmbedded(ctx)
	})
	if s.err != nil {
		return "", s.err
	}
	return s.pg.DSN(), nil
}

func (s *sharedServer) stop() {
	if s.pg != nil {
		s.pg.Stop()
	}
}
