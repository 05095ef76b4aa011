// Package pgconn is a test stub of github.com/jackc/pgx/v5/pgconn.
package pgconn

type CommandTag struct{ s string }

func (t CommandTag) RowsAffected() int64 { return 0 }

type PgError struct {
	Code    string
	Message string
}

func (e *PgError) Error() string { return e.Message }
