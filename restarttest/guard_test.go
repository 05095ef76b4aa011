package restarttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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

// Setup SQL that creates a table outside the schema is refused by the
// server (the setup runs as the run's role) and the run ends with exit 2
// naming the role's limit.
func TestSetupOutsideTheSchemaIsRefused(t *testing.T) {
	leak := publicTable(t)
	_, err := guardRun(t, "exit 0", "create table t (id int); create table "+leak+" (id int);")
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "permission denied for schema public") || !strings.Contains(err.Error(), "may only change the run's schema") {
		t.Fatalf("err = %v, want an environment error: permission denied, the setup runs as the run's role", err)
	}
	if tableExists(t, leak) {
		t.Errorf("%s was left behind", leak)
	}
}

// What the role may not do is refused by the server, from the setup and
// from a handler: COPY … TO PROGRAM (also inside a DO block), ALTER
// SYSTEM, reading the server's files, another schema, becoming another
// role. Nothing ran, nothing changed.
func TestTheRunsRolePreventsWhatReachesOutside(t *testing.T) {
	requirePsql(t)
	marker := filepath.Join(t.TempDir(), "program-ran")
	copyProgram := "copy (select 1) to program 'touch " + marker + "'"
	copyInDO := "do $$ begin execute " + quoteLiteral(copyProgram) + "; end $$"
	for name, setup := range map[string]string{
		"copy program":       copyProgram,
		"copy program in DO": copyInDO,
		"alter system":       "alter system set work_mem = '77MB'",
		"server file":        "create table f as select pg_read_binary_file('/proc/self/environ') as env",
	} {
		_, err := guardRun(t, "exit 0", setup)
		if err == nil || !strings.Contains(err.Error(), "setup SQL") {
			t.Errorf("%s: err = %v, want the setup refused", name, err)
		}
	}

	victim := publicTable(t)
	c, err := pgx.Connect(context.Background(), dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(context.Background(), "create table "+victim+" (id int)"); err != nil {
		t.Fatal(err)
	}
	other := "idemcheck_guard_s_" + randomHex(3)
	sqls := []string{
		copyProgram,
		copyInDO,
		"alter system set work_mem = '77MB'",
		"select pg_read_binary_file('/proc/self/environ')",
		"select pg_read_file('postgresql.auto.conf')",
		"drop table " + victim,
		"insert into " + victim + " values (1)",
		"create schema " + other,
		"set idemcheck.run = ''; create table public.leak_" + randomHex(3) + " (id int)",
		"set role postgres",
		"set session authorization postgres",
		"select set_config('role', 'postgres', false)",
	}
	var handler strings.Builder
	for _, q := range sqls {
		fmt.Fprintf(&handler, "psql -X -q -U postgres -c %s 2>&1 | head -1 >&2; ", shellQuote(q))
	}
	handler.WriteString(`psql -X -At -U postgres -c "select current_user || ' ' || session_user" >&2`)
	rep, err := guardRun(t, handler.String(), "")
	if err != nil && !strings.Contains(err.Error(), "nothing to judge") || rep == nil {
		t.Fatalf("err = %v", err)
	}
	stderr := rep.Rounds[0].Attempts[0].Stderr
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != len(sqls)+1 {
		t.Fatalf("handler output: %q", stderr)
	}
	for i, q := range sqls {
		if !strings.Contains(lines[i], "ERROR") {
			t.Errorf("%s: %q, want an error from the server", q, lines[i])
		}
	}
	if want := rep.Schema + " " + rep.Schema; lines[len(sqls)] != want {
		t.Errorf("the handler, asking for user postgres, is %q; want the run's role %q", lines[len(sqls)], want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("COPY … TO PROGRAM ran a program")
	}
	if !tableExists(t, victim) {
		t.Errorf("%s was dropped", victim)
	}
	var n int
	if err := c.QueryRow(context.Background(), "select (select count(*) from "+victim+") + (select count(*) from pg_namespace where nspname = $1)", other).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows in %s plus schema %s: %d, %v; want 0", victim, other, n, err)
	}
	var workMem int
	if err := c.QueryRow(context.Background(), "select count(*) from pg_file_settings where name = 'work_mem' and setting = '77MB'").Scan(&workMem); err != nil || workMem != 0 {
		t.Errorf("ALTER SYSTEM wrote work_mem: %d %v", workMem, err)
	}
	if rep.SchemaCheck != SchemaChecked {
		t.Errorf("schema_check = %q", rep.SchemaCheck)
	}
}

// Where the role may change something outside its schema (a schema that
// grants CREATE to PUBLIC), the event triggers still refuse it and the
// run names what was tried, even after the handler changed every setting
// it can. Its own tables, temporary tables and the guard's warnings stay
// out of it.
func TestHandlerOutsideTheSchemaIsRefused(t *testing.T) {
	requirePsql(t)
	open := "idemcheck_guard_open_" + randomHex(3)
	c, err := pgx.Connect(context.Background(), dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(context.Background(), "create schema "+open+"; grant usage, create on schema "+open+" to public"); err != nil {
		t.Fatal(err)
	}
	defer c.Exec(context.Background(), "drop schema "+open+" cascade")
	leak := open + ".leak"
	handler := fmt.Sprintf(`psql -X -q -c "set idemcheck.run = ''" -c "reset all" -c "create table %s (id int)"; exit 0`, leak)
	rep, err := guardRun(t, handler, "")
	wantOutside(t, err, "the handler: CREATE TABLE "+leak)
	if rep != nil || strings.Contains(err.Error(), "WARNING") {
		t.Errorf("report %v, error %v: want no report and no server warning text", rep, err)
	}
	if tableExists(t, leak) {
		t.Errorf("%s was created", leak)
	}

	// It makes no effect request: nothing to judge, but nothing outside.
	rep, err = guardRun(t, `psql -X -q -v ON_ERROR_STOP=1 -c "create table mine (a int)" -c "create temp table scratch (a int)" -c "alter table mine add b int" -c "drop table mine"`, "")
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

// Transaction control in the setup would end the round's transaction
// half-way: it is refused before anything runs, naming the statement, in
// every spelling and in a file of several migrations.
func TestSetupTransactionControlIsRefused(t *testing.T) {
	for _, setup := range []string{
		"create table a (id int); COMMIT; create table b (id int);",
		"begin; create table a (id int); commit;",
		"create table a (id int);\n-- migration 2\nrollback;",
		"start transaction; create table a (id int)",
		"create table a (id int); savepoint s; release savepoint s",
		"create table a (id int); rollback to savepoint s",
		"end",
		"abort",
		"prepare transaction 'x'",
	} {
		_, err := Run(context.Background(), Config{Handler: "exit 0", Message: []byte(`{}`), Setup: setup, DSN: "postgres://nobody@127.0.0.1:1/none"})
		var env *EnvError
		if !errors.As(err, &env) || !strings.Contains(err.Error(), "controls the transaction") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v, want one line refusing transaction control", setup, err)
		}
	}
	_, err := Run(context.Background(), Config{Handler: "exit 0", Message: []byte(`{}`), Setup: "create table a (id int); COMMIT; create table b (id int);", DSN: "postgres://nobody@127.0.0.1:1/none"})
	if err == nil || !strings.Contains(err.Error(), "statement 2 (COMMIT)") {
		t.Errorf("err = %v, want it to name statement 2 (COMMIT)", err)
	}
	// Not transaction control: a prepared statement, a DO block's text.
	if err := transactionControl("prepare q as select 1; do $$ begin raise notice 'commit'; end $$; create table endings (id int)"); err != nil {
		t.Error(err)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func requirePsql(t *testing.T) {
	t.Helper()
	shellConfig(t, "")
}

// A handler that connects to the server itself, not through the proxy,
// makes the run an environment error naming the process and its user.
func TestHandlerConnectingDirectlyIsDetected(t *testing.T) {
	requirePsql(t)
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp")
	}
	cfg, err := pgx.ParseConfig(dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(cfg.Host, "/") {
		t.Skip("the tests' server is on a unix socket")
	}
	direct := fmt.Sprintf("postgresql://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, cfg.Database)
	_, err = guardRun(t, "psql -X -q "+shellQuote(direct)+` -c "select pg_sleep(1)"`, "")
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "connected to the database directly") ||
		!strings.Contains(err.Error(), "(psql) as database user "+cfg.User) {
		t.Fatalf("err = %v, want the direct connection named", err)
	}
	// Through the proxy, the same is no finding.
	_, err = guardRun(t, `psql -X -q -c "select pg_sleep(1)"`, "")
	if err == nil || strings.Contains(err.Error(), "directly") {
		t.Errorf("through the proxy: %v", err)
	}
}

// A DSN user who may create neither roles nor event triggers still runs,
// as itself, and the report says that nothing is prevented or detected.
// One with CREATEROLE gets the run's role: prevention without the event
// triggers. Neither leaves a role behind.
func TestGuardForUsersWithoutSuperuser(t *testing.T) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var db string
	if err := c.QueryRow(ctx, "select current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		attrs, want string
		role        bool
	}{
		{"", "the database user may not create a role for the run (that needs CREATEROLE or a superuser); the database user may not create event triggers (that needs a superuser), so changes outside the run's schema are not detected", false},
		{"createrole", SchemaChecked, true},
	} {
		user := "idemcheck_test_user_" + randomHex(3)
		q := pgx.Identifier{user}.Sanitize()
		if _, err := c.Exec(ctx, "create role "+q+" login "+tc.attrs+"; grant create on database "+pgx.Identifier{db}.Sanitize()+" to "+q); err != nil {
			t.Fatal(err)
		}
		defer c.Exec(ctx, "drop owned by "+q+"; drop role "+q)
		cfg, err := pgx.ParseConfig(dsn(t))
		if err != nil {
			t.Fatal(err)
		}
		u := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", user, cfg.Host, cfg.Port, cfg.Database)
		if strings.HasPrefix(cfg.Host, "/") {
			u = fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d", user, cfg.Database, cfg.Host, cfg.Port)
		}
		rep, err := Run(ctx, Config{Handler: `psql -X -At -c "select session_user" >&2`, Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, MaxAttempts: 1, DSN: u})
		if err != nil && !strings.Contains(err.Error(), "nothing to judge") || rep == nil {
			t.Fatalf("%s: %v", user, err)
		}
		if rep.SchemaCheck != tc.want {
			t.Errorf("%s (%s): schema_check %q, want %q", user, tc.attrs, rep.SchemaCheck, tc.want)
		}
		sessionUser := strings.TrimSpace(rep.Rounds[0].Attempts[0].Stderr)
		if tc.role != (sessionUser == rep.Schema) || !tc.role && sessionUser != user {
			t.Errorf("%s (%s): the handler is %q", user, tc.attrs, sessionUser)
		}
		var roles int
		if err := c.QueryRow(ctx, "select count(*) from pg_roles where rolname = $1", rep.Schema).Scan(&roles); err != nil || roles != 0 {
			t.Errorf("role %s left: %d %v", rep.Schema, roles, err)
		}
	}
}

// TestGuardRemovalWaitsForOlderTransactions: another session whose
// transaction began while the guard's triggers were enabled may still call
// their function, so the function stays until that transaction ends; a DDL
// command in it must not fail with "cache lookup failed for function".
func TestGuardRemovalWaitsForOlderTransactions(t *testing.T) {
	ctx := context.Background()
	connect := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, dsn(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(ctx) })
		return c
	}
	admin, other, watcher := connect(), connect(), connect()
	g := installGuard(ctx, admin, "idemcheck_guard_test_"+randomHex(3), nil)
	if !g.active {
		t.Skipf("no guard: %s", g.reason)
	}
	g.drainLimit = time.Hour // the test, not the limit, ends the wait
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "create temporary table idemcheck_guard_older (x int)"); err != nil {
		t.Fatal(err)
	}
	removed := make(chan struct{})
	go func() { g.remove(ctx, admin); close(removed) }()
	// Once the triggers are disabled, removal waits for the other
	// transaction: its function is still there.
	for {
		var state string
		if err := watcher.QueryRow(ctx, "select evtenabled from pg_event_trigger where evtname = $1", g.name+"_ddl").Scan(&state); err != nil {
			t.Fatalf("the triggers went before the older transaction ended: %v", err)
		}
		if state == "D" {
			break
		}
		select {
		case <-removed:
			t.Fatal("removal returned before the older transaction ended")
		case <-time.After(10 * time.Millisecond):
		}
	}
	// Give a removal that does not wait the time to drop the function (the
	// old one waited 100 ms); one that waits is still waiting, whatever the
	// load, so this pause cannot fail a correct removal.
	time.Sleep(300 * time.Millisecond)
	var functions int
	if err := watcher.QueryRow(ctx, "select count(*) from pg_proc where proname = $1", g.name).Scan(&functions); err != nil || functions != 1 {
		t.Fatalf("the guard's function went while an older transaction could still call it (%d, %v)", functions, err)
	}
	if _, err := tx.Exec(ctx, "create temporary table idemcheck_guard_older2 (x int)"); err != nil {
		t.Fatalf("DDL in a transaction older than the removal: %v", err)
	}
	select {
	case <-removed:
		t.Fatal("removal returned before the older transaction ended")
	default:
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	<-removed
	var left int
	if err := watcher.QueryRow(ctx, "select count(*) from pg_event_trigger where evtname like $1", g.name+"%").Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d triggers left after removal (%v)", left, err)
	}
}

// A run whose admin session ends without removing its guard (its process
// killed, its connection lost) takes the function and the triggers with
// it at once; a command of another session that had looked the triggers
// up fails with the error below (CI's log, verbatim). Such a failure is
// retried, in a new transaction; any other error is not.
func TestStaleTriggerOfAnEndedRunIsRetried(t *testing.T) {
	stale := &pgconn.PgError{Severity: "ERROR", Code: "XX000", Message: "cache lookup failed for function 85698"}
	for _, tc := range []struct {
		name  string
		errs  []error // what each try returns
		tries int
	}{
		{"stale then ok", []error{stale, nil}, 2},
		{"wrapped stale then ok", []error{fmt.Errorf("drop schema x: %w", stale), nil}, 2},
		{"stale every time", []error{stale, stale, stale, stale, stale}, staleTriggerTries},
		{"another internal error", []error{&pgconn.PgError{Code: "XX000", Message: "cache lookup failed for relation 1"}}, 1},
		{"a refusal", []error{&pgconn.PgError{Code: "42501", Message: "permission denied"}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tries := 0
			err := retryStaleTrigger(func() error {
				err := tc.errs[tries]
				tries++
				return err
			})
			if tries != tc.tries {
				t.Errorf("tries: got %d, want %d", tries, tc.tries)
			}
			want := tc.errs[tc.tries-1]
			if err != want {
				t.Errorf("error: got %v, want %v", err, want)
			}
		})
	}
}
