// Package pgx is a minimal stub of github.com/jackc/pgx/v5 for tests.
package pgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

type Row interface {
	Scan(dest ...any) error
}

type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Close()
}

type CollectableRow interface {
	Scan(dest ...any) error
}

type RowToFunc[T any] func(row CollectableRow) (T, error)

type Conn struct{ row Row }

func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) Row {
	return c.row
}

func (c *Conn) Query(ctx context.Context, sql string, args ...any) (Rows, error) {
	return nil, nil
}

func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}

func CollectRows[T any](rows Rows, fn RowToFunc[T]) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := fn(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func CollectOneRow[T any](rows Rows, fn RowToFunc[T]) (T, error) {
	var v T
	if rows.Next() {
		return fn(rows)
	}
	return v, nil
}

func RowTo[T any](row CollectableRow) (T, error) {
	var v T
	err := row.Scan(&v)
	return v, err
}

func RowToStructByName[T any](row CollectableRow) (T, error) {
	var v T
	err := row.Scan(&v)
	return v, err
}
