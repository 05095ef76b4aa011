package restarttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemcheck/idemcheck/internal/procgroup"
	"github.com/idemcheck/idemcheck/restarttest/pgproxy"
)

// The run's role: the setup SQL and every handler session log in as a
// role created for the run, named like the run's schema. It is no
// superuser, may create no role or database, is a member of no role and
// owns only the run's schema. So what only a superuser may do —
// COPY … TO PROGRAM (also inside a DO block), ALTER SYSTEM, reading the
// server's files (pg_read_binary_file), SET SESSION AUTHORIZATION — and
// what needs a grant on another schema are refused by the server itself:
// prevented, not detected. Its password is random, known only to
// idemcheck and given to no handler: the proxy logs in with it.
//
// Like the schema, the role carries its owner in its comment, so the next
// run drops it when the run that made it was killed with SIGKILL.

// runRole is the role of a run.
type runRole struct {
	name     string
	password string
}

// createRole creates the run's role; a database user who may not create
// roles (CREATEROLE) gets none, and the reason says so.
func createRole(ctx context.Context, admin *pgx.Conn, name string) (*runRole, string) {
	r := &runRole{name: name, password: randomHex(24)}
	q := pgx.Identifier{name}.Sanitize()
	sql := "create role " + q + " login password " + quoteLiteral(r.password) +
		" nosuperuser nocreatedb nocreaterole noinherit noreplication nobypassrls"
	if c := ownerComment(); c != "" {
		sql += "; comment on role " + q + " is " + quoteLiteral(c)
	}
	var super string
	if err := admin.QueryRow(ctx, "select current_setting('is_superuser')").Scan(&super); err == nil && super != "on" {
		// A CREATEROLE user must be a member to give the role its schema.
		sql += "; grant " + q + " to current_user"
	}
	_, err := admin.PgConn().Exec(ctx, sql).ReadAll()
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return r, ""
	case errors.As(err, &pgErr) && pgErr.Code == "42501":
		return nil, "the database user may not create a role for the run (that needs CREATEROLE or a superuser)"
	default:
		return nil, "no role could be created for the run: " + shorten(err.Error(), 200)
	}
}

// connect logs in as the role at the DSN's server.
func (r *runRole) connect(ctx context.Context, dsn string, onNotice pgconn.NoticeHandler) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.User, cfg.Password = r.name, r.password
	cfg.OnNotice = onNotice
	return pgx.ConnectConfig(ctx, cfg)
}

// dropRole ends the role's sessions and drops it with what it owns in
// this database. A role that still owns objects in another database stays
// (a later run there drops it).
func dropRole(ctx context.Context, admin *pgx.Conn, name string) error {
	return pgx.BeginFunc(ctx, admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "set local lock_timeout = '2s'"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and pid <> pg_backend_pid()", name); err != nil {
			return err
		}
		q := pgx.Identifier{name}.Sanitize()
		if _, err := tx.Exec(ctx, "drop owned by "+q+" cascade"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "drop role "+q)
		return err
	})
}

// sweepStaleRoles drops the roles of runs on this host whose owner is
// gone.
func (db *database) sweepStaleRoles(ctx context.Context) {
	rows, err := db.admin.Query(ctx, `
select rolname, shobj_description(oid, 'pg_authid') from pg_roles
where rolname like 'idemcheck\_rt\_%' and shobj_description(oid, 'pg_authid') like $1`, schemaCommentPrefix+"%")
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name, comment string
		if rows.Scan(&name, &comment) == nil && ownerCommentGone(comment) {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		_ = dropRole(ctx, db.admin, name)
	}
}

// ownerComment marks a schema or role with this host and this run's owner.
func ownerComment() string {
	owner := procgroup.OwnerSuffix()
	if owner == "" {
		return ""
	}
	host, _ := os.Hostname()
	return schemaCommentPrefix + host + " owner " + owner
}

// ownerCommentGone reports whether a comment written by ownerComment names
// a run on this host that has ended.
func ownerCommentGone(comment string) bool {
	host, _ := os.Hostname()
	h, owner, ok := strings.Cut(strings.TrimPrefix(comment, schemaCommentPrefix), " owner ")
	return ok && h == host && procgroup.OwnerGone(owner)
}

// transactionControl returns the reason to refuse setup SQL that controls
// the transaction itself: the setup of a round runs in one transaction,
// and a COMMIT or ROLLBACK in it would end that transaction half-way.
func transactionControl(setup string) error {
	for i, st := range pgproxy.Split(setup) {
		if isTransactionControl(st) {
			return fmt.Errorf("setup SQL: statement %d (%s) controls the transaction; restart-test runs the setup in one transaction per round: remove BEGIN, COMMIT, ROLLBACK, SAVEPOINT and the like from it",
				i+1, shorten(st.SQL, 60))
		}
	}
	return nil
}

func isTransactionControl(st pgproxy.Statement) bool {
	switch st.Kind {
	case pgproxy.KindBegin, pgproxy.KindCommit, pgproxy.KindRollback, pgproxy.KindRollbackTo, pgproxy.KindPrepareTransaction:
		return true
	}
	return st.First == "savepoint" || st.First == "release"
}
