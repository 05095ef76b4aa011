// Package sqlx is a test stub of github.com/jmoiron/sqlx.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

func (db *DB) Get(dest any, query string, args ...any) error                             { return nil }
func (db *DB) Select(dest any, query string, args ...any) error                          { return nil }
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error { return nil }
func (db *DB) NamedExec(query string, arg any) (sql.Result, error)                       { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error) {
	return nil, nil
}
func (db *DB) MustExec(query string, args ...any) sql.Result { return nil }
func (db *DB) Beginx() (*Tx, error)                          { return nil, nil }

type Tx struct{ *sql.Tx }

func (tx *Tx) Get(dest any, query string, args ...any) error       { return nil }
func (tx *Tx) MustExec(query string, args ...any) sql.Result       { return nil }
func (tx *Tx) NamedExec(query string, arg any) (sql.Result, error) { return nil, nil }
