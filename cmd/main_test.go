package cmd

import (
	"os"
	"testing"

	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/idemcheck/idemcheck/internal/testpg"
)

// TestMain makes "no database configured" true for every test: a DSN in
// the environment would change which database restart-test picks. After
// the tests it stops the shared embedded server and removes
// the idemcheck executable the lint tests give go vet as its -vettool
// (testenv.Idemcheck), so lint is tested end to end through the real go vet
// protocol.
func TestMain(m *testing.M) {
	for _, v := range []string{"DATABASE_URL", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"} {
		os.Setenv(v, "")
	}
	code := m.Run()
	shared.Stop()
	testenv.RemoveIdemcheck()
	os.Exit(code)
}

// shared is the embedded server of the restart-test tests that are not
// about the embedded server itself.
var shared testpg.Shared
