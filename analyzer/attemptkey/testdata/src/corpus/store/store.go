// Package store keeps payment intents in PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/jackc/pgx/v5"
)

// Store wraps the intents table.
type Store struct {
	Conn *pgx.Conn
	DB   *sql.DB
}

// EnsureKey writes candidate as the order's key unless one exists, and
// returns the key that is stored.
func (s *Store) EnsureKey(ctx context.Context, orderID, candidate string) (string, error) {
	var key string
	err := s.Conn.QueryRow(ctx, `insert into intents(order_id, idem_key, created_at) values ($1, $2, $3)
		on conflict (order_id) do update set order_id = excluded.order_id returning idem_key`,
		orderID, candidate, time.Now()).Scan(&key)
	return key, err
}

// KeyFor reads the stored key of an order with database/sql.
func (s *Store) KeyFor(ctx context.Context, orderID string) (string, error) {
	rows, err := s.DB.QueryContext(ctx, `select idem_key from intents where order_id = $1`, orderID)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var key string
	for rows.Next() {
		if err := rows.Scan(&key); err != nil {
			return "", err
		}
	}
	return key, rows.Err()
}

// Stamp returns the current time for created_at columns.
func Stamp() time.Time { return time.Now().UTC() }
