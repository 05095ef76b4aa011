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

// The harness's own database session is terminated while the handler
// starts: the run has no verdict (exit 2) and says so in plain words, with
// no library wording, and the schema is dropped over a new session. The
// test terminates it from outside, as the DSN's user: the handler runs as
// the run's role, which may not signal the harness's session.
func TestLostDatabaseConnectionIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql not installed")
	}
	dir := t.TempDir()
	cfg := Config{
		// The handler names its schema (the harness's session is named
		// after it), then waits until the test has terminated that session.
		Handler: `psql -X -q -t -A -c "select current_schema()" > "$SCHEMA_FILE.tmp" && mv "$SCHEMA_FILE.tmp" "$SCHEMA_FILE" &&
i=0; while [ ! -e "$GO_FILE" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done &&
cat > /dev/null &&
curl -sS -f -H 'Idempotency-Key: fixed' --data '{"amount":"150.00"}' "$PROVIDER_URL/v1/charges" > /dev/null`,
		Message:    readTestdata(t, "message.json"),
		DSN:        dsn(t),
		Timeout:    attemptLimit,
		KillPoints: []KillPoint{{Kind: KillNone}, {Kind: KillConcurrent, N: 2}},
	}
	// The server's address, as the message names it: IDEMCHECK_TEST_DATABASE's,
	// or the embedded server's when it is unset.
	pcfg, err := parseDSN(cfg.DSN)
	if err != nil {
		t.Fatal(err)
	}
	server := dbAddress(pcfg)
	n := testenv.Repeat(t)
	for i := 0; i < n; i++ {
		file := filepath.Join(dir, "schema")
		goFile := filepath.Join(dir, "go")
		_ = os.Remove(file)
		_ = os.Remove(goFile)
		cfg.Env = append(os.Environ(), "SCHEMA_FILE="+file, "GO_FILE="+goFile)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		terminated := make(chan error, 1)
		go func() { terminated <- terminateHarnessSession(ctx, cfg.DSN, file, goFile) }()
		rep, err := Run(ctx, cfg)
		if terr := <-terminated; terr != nil {
			cancel()
			t.Fatalf("run %d: terminating the harness's session: %v", i+1, terr)
		}
		cancel()
		var env *EnvError
		if !errors.As(err, &env) {
			t.Fatalf("run %d: Run = %v, %v; want an environment error, no verdict", i+1, rep != nil, err)
		}
		msg := env.Error()
		if !strings.HasPrefix(msg, "lost the connection to PostgreSQL at "+server+" (the server terminated the session") {
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

// terminateHarnessSession waits for the handler to name its schema in
// schemaFile, terminates the harness's session of that run (named
// "idemcheck SCHEMA"), then lets the handler go on by creating goFile.
func terminateHarnessSession(ctx context.Context, dsn, schemaFile, goFile string) error {
	defer os.WriteFile(goFile, nil, 0o644)
	var schema string
	for schema == "" {
		if b, err := os.ReadFile(schemaFile); err == nil {
			schema = strings.TrimSpace(string(b))
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	var n int
	err = c.QueryRow(ctx, "select count(pg_terminate_backend(pid)) from pg_stat_activity where application_name = 'idemcheck ' || $1::text", schema).Scan(&n)
	if err == nil && n == 0 {
		return errors.New("no session named after schema " + schema)
	}
	return err
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
