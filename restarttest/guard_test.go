package restarttest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// publicTable is a table name outside any run's schema, unique per call.
func publicTable(t *testing.T) string {
	t.Helper()
	name := "public.idemcheck_guard_test_" + randomHex(4)
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn(t))
		if err == nil {
			_, _ = c.Exec(context.Background(), "drop table if exists "+name)
			c.Close(context.Background())
		}
	})
	return name
}

func tableExists(t *testing.T, name string) bool {
	t.Helper()
	c, err := pgx.Connect(context.Background(), dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var ok bool
	if err := c.QueryRow(context.Background(), "select to_regclass($1) is not null", name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func guardRun(t *testing.T, handler, setup string) (*Report, error) {
	t.Helper()
	return Run(context.Background(), Config{
		Handler:     handler,
		Message:     []byte(`{}`),
		Setup:       setup,
		KillPoints:  []KillPoint{{Kind: KillNone}},
		MaxAttempts: 1,
		DSN:         dsn(t),
	})
}

func wantOutside(t *testing.T, err error, parts ...string) {
	t.Helper()
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "outside the run's schema") {
		t.Fatalf("err = %v, want an environment error about changes outside the schema", err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not name %q", err, p)
		}
	}
}

// Setup SQL that creates a table outside the schema is refused and rolled back.
func TestSetupOutsideTheSchemaIsRefused(t *testing.T) {
	leak := publicTable(t)
	_, err := guardRun(t, "exit 0", "create table t (id int); create table "+leak+" (id int);")
	wantOutside(t, err, "the setup SQL: CREATE TABLE "+leak)
	if tableExists(t, leak) {
		t.Errorf("%s was left behind", leak)
	}
}

// A handler that creates and drops objects elsewhere, or runs COPY …
// PROGRAM, is named with what it touched; its own tables, temporary
// tables and the guard's warnings stay out of it.
func TestHandlerOutsideTheSchemaIsReported(t *testing.T) {
	requirePsql(t)
	leak := publicTable(t)
	other := "idemcheck_guard_s_" + randomHex(3)
	t.Cleanup(func() {
		if c, err := pgx.Connect(context.Background(), dsn(t)); err == nil {
			_, _ = c.Exec(context.Background(), "drop schema if exists "+other)
			c.Close(context.Background())
		}
	})
	handler := `psql -X -q -v ON_ERROR_STOP=1 -c "create table ` + leak + ` (id int)" -c "create schema ` + other + `" -c "drop table ` + leak + `"`
	_, err := guardRun(t, handler, "")
	wantOutside(t, err, "the handler: CREATE TABLE "+leak, "the handler: CREATE SCHEMA "+other, "the handler: dropped table "+leak)
	if strings.Contains(err.Error(), "WARNING") {
		t.Errorf("error carries the server's warning text: %v", err)
	}

	_, err = guardRun(t, `psql -X -q -v ON_ERROR_STOP=1 -c "copy (select 1) to program 'true'"`, "")
	wantOutside(t, err, "the handler: copy (select 1) to program 'true'")

	// It makes no effect request: nothing to judge, but nothing outside.
	rep, err := guardRun(t, `psql -X -q -v ON_ERROR_STOP=1 -c "create table mine (a int)" -c "create temp table scratch (a int)" -c "alter table mine add b int" -c "drop table mine"`, "")
	if err != nil && !strings.Contains(err.Error(), "nothing to judge") || rep == nil {
		t.Fatalf("a handler keeping to its schema: %v", err)
	}
	if rep.SchemaCheck != SchemaChecked {
		t.Errorf("schema_check = %q", rep.SchemaCheck)
	}
	if a := rep.Rounds[0].Attempts[0]; !a.Acked() || strings.Contains(a.Stderr, guardPrefix) {
		t.Errorf("attempt %s, stderr %q", a.Outcome, a.Stderr)
	}
}

func requirePsql(t *testing.T) {
	t.Helper()
	shellConfig(t, "")
}
