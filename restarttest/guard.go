package restarttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/idemcheck/idemcheck/restarttest/pgproxy"
)

// The schema guard finds what the setup SQL and the handler change outside
// the run's schema. With a run's role (role.go) the server itself refuses
// most of that; the guard names what is left. The run's sessions are
// those logged in as the role (session_user, which no session of a role
// without superuser can change); without a role, those carrying the
// setting runGUC (the proxy adds it to the handler's connections, the
// setup sets it in its transaction), which a handler can change. Two
// event triggers, whose function lives in the admin session's pg_temp (so
// it goes, with the triggers, when that session ends, even if idemcheck
// is killed), report each DDL command and drop of such a session that is
// not in the schema as a warning carrying guardPrefix. The proxy keeps
// those warnings from the handler.
const (
	runGUC      = "idemcheck.run"
	guardPrefix = "idemcheck-outside-schema: "
)

// SchemaChecked is Report.SchemaCheck when the guard was on.
const SchemaChecked = "checked"

// status is what the report says about the guard.
func (g *schemaGuard) status() string {
	switch {
	case g.role:
		return SchemaChecked
	case g.active:
		return g.noRole + ": changes outside the run's schema are detected, not prevented"
	case g.noRole != "":
		return g.noRole + "; " + g.reason
	}
	return g.reason
}

// setupStatements records what the setup SQL would do outside the schema
// that the event triggers cannot see: COPY to or from a program or file.
func (g *schemaGuard) setupStatements(setup string) {
	for _, st := range pgproxy.Split(setup) {
		g.copyOutside("the setup SQL", st)
	}
}

// schemaGuard collects what was touched outside the schema.
type schemaGuard struct {
	name   string // of the event triggers and their function
	runID  string
	active bool
	reason string // why the guard is off
	role   bool   // the run's sessions log in as the run's role
	// drainLimit bounds the wait, at removal, for transactions that began
	// while the triggers were enabled; zero means guardDrainLimit.
	drainLimit time.Duration
	noRole     string // why they do not

	mu      sync.Mutex
	touched []string
	bypass  []string // handler processes connected to the server directly
}

// guardSQL creates the function and the event triggers. Each command or
// drop outside the schema is reported as a warning, then refused with an
// error, so the transaction rolls back and nothing outside the schema
// changes. Temporary objects (pg_temp) and the schema's own are left
// alone; so are GRANT and REVOKE, whose object the server does not name.
func guardSQL(name, runID, schema string, role *runRole) string {
	fn := "pg_temp." + name
	theRun := "current_setting(" + quoteLiteral(runGUC) + ", true) is distinct from " + quoteLiteral(runID)
	if role != nil {
		theRun = "session_user is distinct from " + quoteLiteral(role.name)
	}
	refusal := quoteLiteral("idemcheck restart-test: the run may only change objects in schema " + schema + " (DATABASE_URL's search_path)")
	return `
create function ` + fn + `() returns event_trigger language plpgsql as $f$
declare r record; n int := 0;
begin
  if ` + theRun + ` then
    return;
  end if;
  if tg_event = 'sql_drop' then
    for r in select * from pg_event_trigger_dropped_objects()
             where original and not is_temporary
               and coalesce(schema_name, '') not like 'pg\_temp%'
               and schema_name is distinct from ` + quoteLiteral(schema) + `
               and object_identity is distinct from ` + quoteLiteral(schema) + ` loop
      raise warning '` + guardPrefix + `dropped % %', r.object_type, r.object_identity;
      n := n + 1;
    end loop;
  else
    for r in select * from pg_event_trigger_ddl_commands()
             where command_tag not in ('GRANT', 'REVOKE')
               and coalesce(schema_name, '') not like 'pg\_temp%'
               and schema_name is distinct from ` + quoteLiteral(schema) + `
               and object_identity is distinct from ` + quoteLiteral(schema) + ` loop
      raise warning '` + guardPrefix + `% %', r.command_tag, coalesce(r.object_identity, r.object_type);
      n := n + 1;
    end loop;
  end if;
  if n > 0 then
    raise exception using errcode = '42501', message = ` + refusal + `;
  end if;
end $f$;
create event trigger ` + name + `_ddl on ddl_command_end execute function ` + fn + `();
create event trigger ` + name + `_drop on sql_drop execute function ` + fn + `();`
}

// installGuard sets the guard up on the admin session. A user who may not
// create event triggers (they need a superuser) gets no guard, and the
// report says so.
func installGuard(ctx context.Context, admin *pgx.Conn, schema string, role *runRole) *schemaGuard {
	g := &schemaGuard{name: "idemcheck_guard_" + randomHex(5), runID: randomHex(8), role: role != nil}
	_, err := admin.PgConn().Exec(ctx, guardSQL(g.name, g.runID, schema, role)).ReadAll()
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		g.active = true
	case errors.As(err, &pgErr) && pgErr.Code == "42501":
		g.reason = "the database user may not create event triggers (that needs a superuser), so changes outside the run's schema are not detected"
	default:
		g.reason = "the event triggers that detect changes outside the run's schema could not be created: " + err.Error()
	}
	return g
}

// remove disables the triggers, then drops them and their function (ending
// the admin session would too). Event triggers fire in every session of
// the database, and a session keeps the list it looked up until its next
// transaction: one whose transaction began while ours were enabled may
// still call our function, and fails with "cache lookup failed for
// function" if the function has gone. So the triggers are disabled first
// and dropped only once every transaction older than the disable has ended
// (a newer one rereads the list), or after guardDrainLimit for a session
// that stays in its transaction.
func (g *schemaGuard) remove(ctx context.Context, admin *pgx.Conn) {
	if g == nil || !g.active {
		return
	}
	// A cancelled run still removes its guard the safe way: were the
	// admin session to end first, the triggers would go without the wait.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), guardDrainLimit+5*time.Second)
	defer cancel()
	_, _ = admin.PgConn().Exec(ctx, fmt.Sprintf("alter event trigger %s_ddl disable; alter event trigger %s_drop disable", g.name, g.name)).ReadAll()
	limit := g.drainLimit
	if limit == 0 {
		limit = guardDrainLimit
	}
	waitForOlderTransactions(ctx, admin, limit)
	_, _ = admin.PgConn().Exec(ctx, fmt.Sprintf("drop event trigger if exists %s_ddl; drop event trigger if exists %s_drop; drop function if exists pg_temp.%s()", g.name, g.name, g.name)).ReadAll()
}

// staleTriggerTries bounds retryStaleTrigger.
const staleTriggerTries = 4

// retryStaleTrigger runs f again, in a new transaction, while it fails
// because another run's guard went away under it. A run whose admin
// session ends without remove (its process killed, its connection lost)
// takes its function and triggers with it at once; a session that had
// already looked up the triggers for its command then fails with "cache
// lookup failed for function". The next transaction rereads the list, so
// the failure says nothing about this run: only the statement is retried.
func retryStaleTrigger(f func() error) error {
	err := f()
	for try := 1; try < staleTriggerTries && isStaleTrigger(err); try++ {
		time.Sleep(time.Duration(try) * 50 * time.Millisecond)
		err = f()
	}
	return err
}

// isStaleTrigger reports whether err is a lookup of an event trigger
// function that was dropped during the command.
func isStaleTrigger(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "XX000" &&
		strings.HasPrefix(pgErr.Message, "cache lookup failed for function")
}

// guardDrainLimit bounds the wait for the transactions that began before
// the triggers were disabled.
const guardDrainLimit = 10 * time.Second

// olderTransactions counts the other client sessions of this database whose
// transaction began before $1.
const olderTransactions = `select count(*) from pg_stat_activity
where datname = current_database() and pid <> pg_backend_pid()
  and backend_type = 'client backend' and xact_start < $1`

// waitForOlderTransactions returns once no other session of the database is
// in a transaction that began before the call, or after limit.
func waitForOlderTransactions(ctx context.Context, admin *pgx.Conn, limit time.Duration) {
	var since time.Time
	if err := admin.QueryRow(ctx, "select clock_timestamp()").Scan(&since); err != nil {
		return
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		var n int
		if err := admin.QueryRow(ctx, olderTransactions, since).Scan(&n); err != nil || n == 0 {
			return
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return
		}
	}
}

// notice takes a guard warning; it reports whether msg was one.
func (g *schemaGuard) notice(who, msg string) bool {
	what, ok := strings.CutPrefix(msg, guardPrefix)
	if !ok {
		return false
	}
	g.record(who + ": " + what)
	return true
}

func (g *schemaGuard) record(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !slices.Contains(g.touched, s) { // redeliveries try the same again
		g.touched = append(g.touched, s)
	}
}

// copyOutside records a COPY that runs a program or reads or writes a file
// on the database server: outside the schema whatever it names. It returns
// the reason to refuse it with, or "". (Without the run's role, only
// the statement's text tells: one inside a DO block is not seen.)
func (g *schemaGuard) copyOutside(who string, st pgproxy.Statement) string {
	if g.role || !st.CopyProgram && !st.CopyServerFile {
		// The run's role may do neither: the server refuses it.
		return ""
	}
	g.record(who + ": " + shorten(st.SQL, 120))
	return "idemcheck restart-test: COPY to or from a program or a file on the database server reaches outside the run's schema"
}

// recordBypass records a handler process connected to the server itself.
func (g *schemaGuard) recordBypass(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !slices.Contains(g.bypass, s) {
		g.bypass = append(g.bypass, s)
	}
}

// check turns what was touched so far into the run's environment error.
func (g *schemaGuard) check(schema string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.bypass) > 0 {
		return envErrorf("the handler connected to the database directly, not through DATABASE_URL: %s — restart-test sees, counts and kills only what goes through its proxy; connect with DATABASE_URL or the PG* variables it sets",
			strings.Join(g.bypass, "; "))
	}
	if len(g.touched) == 0 {
		return nil
	}
	return envErrorf("changed the database outside the run's schema %s: %s — the setup SQL and the handler must keep to that schema (DATABASE_URL's search_path)",
		schema, strings.Join(g.touched, "; "))
}

// onProxyNotice is the proxy's notice hook: guard warnings are the
// harness's, not the handler's.
func (g *schemaGuard) onProxyNotice(_ *pgproxy.Session, n *pgproto3.NoticeResponse) bool {
	return !g.notice("the handler", n.Message)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
