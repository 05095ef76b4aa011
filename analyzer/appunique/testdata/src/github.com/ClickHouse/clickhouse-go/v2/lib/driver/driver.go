// Package driver is a stand-in for clickhouse-go's driver interfaces.
package driver

import "context"

type Conn interface {
	Exec(ctx context.Context, query string, args ...any) error
	QueryRow(ctx context.Context, query string, args ...any) Row
}

type Row interface {
	Scan(dest ...any) error
}
