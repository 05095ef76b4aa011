package restarttest

import (
	"context"
	"errors"
	"fmt"
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

// A handler that creates or drops objects elsewhere, or runs COPY …
// PROGRAM, is refused (nothing changes outside the schema) and named with
// what it tried; its own tables, temporary tables and the guard's warnings
// stay out of it.
func TestHandlerOutsideTheSchemaIsRefused(t *testing.T) {
	requirePsql(t)
	leak, victim := publicTable(t), publicTable(t)
	other := "idemcheck_guard_s_" + randomHex(3)
	c, err := pgx.Connect(context.Background(), dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(context.Background(), "create table "+victim+" (id int)"); err != nil {
		t.Fatal(err)
	}
	psql := `psql -X -q -c "%s";`
	handler := fmt.Sprintf(psql+psql+psql+psql, "create table "+leak+" (id int)", "create schema "+other, "drop table "+victim, "copy (select 1) to program 'true'")
	rep, err := guardRun(t, handler+" exit 0", "")
	wantOutside(t, err, "the handler: CREATE TABLE "+leak, "the handler: CREATE SCHEMA "+other,
		"the handler: dropped table "+victim, "the handler: copy (select 1) to program 'true'")
	if rep != nil || strings.Contains(err.Error(), "WARNING") {
		t.Errorf("report %v, error %v: want no report and no server warning text", rep, err)
	}
	if tableExists(t, leak) || !tableExists(t, victim) {
		t.Errorf("outside the schema: %s exists %v, %s exists %v; want nothing changed", leak, tableExists(t, leak), victim, tableExists(t, victim))
	}
	var schemas int
	if err := c.QueryRow(context.Background(), "select count(*) from pg_namespace where nspname = $1", other).Scan(&schemas); err != nil || schemas != 0 {
		t.Errorf("schema %s was created (%d, %v)", other, schemas, err)
	}

	rep, err = guardRun(t, `psql -X -q -v ON_ERROR_STOP=1 -c "create table mine (a int)" -c "create temp table scratch (a int)" -c "alter table mine add b int" -c "drop table mine"`, "")
	if err != nil {
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
