package restarttest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The harness's own session (the admin connection that recreates the
// schema, counts local effects and watches the guard) can be lost mid-run:
// terminated by an administrator or pg_terminate_backend, the server
// restarted, a network hiccup on a loaded machine. The run then has no
// verdict: whatever it observed after the loss may be incomplete. It says
// so in plain words, exit 2, and reconnects to drop the schema.

// adminAppName marks the harness's session in pg_stat_activity, with the
// run's schema, so an administrator (and a test) can tell it apart.
func adminAppName(schema string) string { return "idemcheck " + schema }

// lostConnection returns the run's error when err (or the admin session's
// state) says the connection to the server is gone; nil otherwise.
func (db *database) lostConnection(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	if !db.admin.IsClosed() {
		if err != nil && !connectionLoss(err) {
			return nil
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		perr := db.admin.Ping(pctx)
		cancel()
		if perr == nil && !db.admin.IsClosed() {
			return nil
		}
		if err == nil {
			err = perr
		}
	}
	return &EnvError{Err: fmt.Errorf("lost the connection to PostgreSQL at %s (%s): the run stopped without a verdict; run it again",
		dbAddress(db.cfg), lossReason(err))}
}

// connectionLoss reports whether err ended the session, as opposed to an
// error in a statement.
func connectionLoss(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code[:2] == "57" || pgErr.Code[:2] == "08" // operator intervention, connection exception
	}
	return true // not the server's answer to a statement: the connection failed
}

// lossReason says why the session ended, without the library's wording.
func lossReason(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01":
			return "the server terminated the session: pg_terminate_backend or an administrator"
		case "57P02", "57P03":
			return "the server shut down or restarted"
		}
	}
	if pgconn.Timeout(err) {
		return "the server stopped answering"
	}
	return "the server closed the connection"
}

// alive is the check after each round: a session lost while the handler
// ran would otherwise only show at the next round, or never.
func (db *database) alive(ctx context.Context) error {
	return db.lostConnection(ctx, nil)
}

// reconnect opens a new admin session after the old one was lost, so the
// schema can still be dropped.
func (db *database) reconnect(ctx context.Context) error {
	if !db.admin.IsClosed() {
		return nil
	}
	c, err := pgx.ConnectConfig(ctx, db.acfg)
	if err != nil {
		return connectError(db.cfg, err)
	}
	db.admin = c
	return nil
}
