package restarttest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/jackc/pgx/v5"
)

// A handler that terminates the harness's own database session while it
// starts: the run has no verdict (exit 2) and says so in plain words, with
// no library wording, and the schema is dropped over a new session.
func TestLostDatabaseConnectionIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql not installed")
	}
	dir := t.TempDir()
	cfg := Config{
		// The harness's session is named after the run's schema, which
		// is the handler's current_schema().
		Handler: `psql -X -q -t -A -c "select current_schema()" > "$SCHEMA_FILE" &&
psql -X -q -t -A -c "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'idemcheck ' || current_schema()" > /dev/null &&
cat > /dev/null &&
curl -sS -f -H 'Idempotency-Key: fixed' --data '{"amount":"150.00"}' "$PROVIDER_URL/v1/charges" > /dev/null`,
		Message:    readTestdata(t, "message.json"),
		DSN:        dsn(t),
		Timeout:    20 * time.Second,
		KillPoints: []KillPoint{{Kind: KillNone}, {Kind: KillConcurrent, N: 2}},
	}
	n := testenv.Repeat(t)
	for i := 0; i < n; i++ {
		file := filepath.Join(dir, "schema")
		_ = os.Remove(file)
		cfg.Env = append(os.Environ(), "SCHEMA_FILE="+file)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rep, err := Run(ctx, cfg)
		cancel()
		var env *EnvError
		if !errors.As(err, &env) {
			t.Fatalf("run %d: Run = %v, %v; want an environment error, no verdict", i+1, rep != nil, err)
		}
		msg := env.Error()
		if !strings.HasPrefix(msg, "lost the connection to PostgreSQL at 127.0.0.1:5432 (the server terminated the session") {
			t.Errorf("run %d: error %q, want the lost connection in plain words", i+1, msg)
		}
		for _, raw := range []string{"conn closed", "deallocate", "SQLSTATE", "FATAL"} {
			if strings.Contains(msg, raw) {
				t.Errorf("run %d: error %q has the library's wording %q", i+1, msg, raw)
			}
		}
		schema, _ := os.ReadFile(file)
		if s := strings.TrimSpace(string(schema)); s == "" {
			t.Errorf("run %d: the handler never ran", i+1)
		} else if schemaExists(t, cfg.DSN, s) {
			t.Errorf("run %d: schema %s left behind", i+1, s)
		}
	}
}

func schemaExists(t *testing.T, dsn, schema string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "select count(*) from pg_namespace where nspname = $1", schema).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}
