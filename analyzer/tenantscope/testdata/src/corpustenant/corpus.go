// Package corpustenant is an independent labelled corpus for IDEM007:
// lookups on idempotency/intent/dedup tables by key, with and without a
// tenant column, through database/sql, pgx and sqlx.
package corpustenant

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

type Store struct {
	db   *sql.DB
	pool *pgxpool.Pool
	x    *sqlx.DB
}

const lookupProcessed = `SELECT processed_at FROM processed_messages WHERE idempotency_key = $1`

const lookupProcessedScoped = `SELECT processed_at FROM processed_messages WHERE tenant_id = $1 AND idempotency_key = $2`

// --- positives -------------------------------------------------------------

func (s *Store) CachedResponse(ctx context.Context, key string) ([]byte, error) {
	var resp []byte
	err := s.db.QueryRowContext(ctx, "SELECT response FROM idempotency_keys WHERE idempotency_key = $1", key).Scan(&resp) // want `tenant`
	return resp, err
}

func (s *Store) MarkSucceeded(ctx context.Context, key, chargeID string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payment_intents SET status = 'succeeded', charge_id = $2 WHERE idempotency_key = $1", key, chargeID) // want `tenant`
	return err
}

func (s *Store) SeenMessage(key string) (bool, error) {
	var at sql.NullTime
	err := s.x.Get(&at, lookupProcessed, key) // want `tenant`
	return at.Valid, err
}

func (s *Store) KeyRow(ctx context.Context, tx pgx.Tx, key string) (string, error) {
	var status string
	err := tx.QueryRow(ctx, `SELECT k.status FROM idempotency_keys k WHERE k.idempotency_key = $1 AND k.created_at > now() - interval '24 hours'`, key).Scan(&status) // want `tenant`
	return status, err
}

func (s *Store) LockIntent(ctx context.Context, tx *sql.Tx, key string) error {
	_, err := tx.ExecContext(ctx, "SELECT 1 FROM payment_intents WHERE idempotency_key = $1 FOR UPDATE", key) // want `tenant`
	return err
}

// --- clean -----------------------------------------------------------------

func (s *Store) CachedResponseScoped(ctx context.Context, tenant, key string) ([]byte, error) {
	var resp []byte
	err := s.db.QueryRowContext(ctx, "SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key).Scan(&resp)
	return resp, err
}

func (s *Store) MarkSucceededScoped(ctx context.Context, account, key string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payment_intents SET status = 'succeeded' WHERE account_id = $1 AND idempotency_key = $2", account, key)
	return err
}

func (s *Store) SeenMessageScoped(tenant, key string) (bool, error) {
	var at sql.NullTime
	err := s.x.Get(&at, lookupProcessedScoped, tenant, key)
	return at.Valid, err
}

// An orders table that records the client's idempotency key: the column,
// not the table's name, makes it a lookup by key.
func (s *Store) OrderByKey(ctx context.Context, key string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT id FROM orders WHERE idempotency_key = $1", key).Scan(&id) // want `tenant`
	return id, err
}

// Any other table's key-like column (an API key, a public key) is no
// idempotency key: unique across tenants by design.
func (s *Store) UserByAPIKey(ctx context.Context, key string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT id FROM users WHERE api_key = $1", key).Scan(&id)
	return id, err
}

func (s *Store) OrderByKeyScoped(ctx context.Context, user, key string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT id FROM orders WHERE customer_id = $1 AND idempotency_key = $2", user, key).Scan(&id)
	return id, err
}

func (s *Store) ExpiredKeys(ctx context.Context) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE expires_at < now()").Scan(&n)
	return n, err
}

func (s *Store) TupleScoped(ctx context.Context, tenant, key string) (string, error) {
	var status string
	err := s.pool.QueryRow(ctx, "SELECT status FROM payment_intents WHERE (tenant_id, idempotency_key) = ($1, $2)", tenant, key).Scan(&status)
	return status, err
}

func (s *Store) Claim(ctx context.Context, tenant, key string) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", tenant, key)
	return err
}

// --- more shapes -----------------------------------------------------------

func (s *Store) ByPlainKey(ctx context.Context, key string) ([]byte, error) {
	q := "SELECT response_body FROM idempotency_keys WHERE key = $1"
	var body []byte
	err := s.db.QueryRowContext(ctx, q, key).Scan(&body) // want `tenant`
	return body, err
}

func (s *Store) ManyByKey(keys []string) ([]string, error) {
	var ids []string
	err := s.x.Select(&ids, "SELECT id FROM payment_intents WHERE idempotency_key = ANY($1)", keys) // want `tenant`
	return ids, err
}

func (s *Store) ByClient(ctx context.Context, client, key string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE idempotency_keys SET locked_at = now() WHERE client_id = $1 AND idempotency_key = $2", client, key)
	return err
}

func (s *Store) ByID(ctx context.Context, id int64) (string, error) {
	var st string
	err := s.pool.QueryRow(ctx, "SELECT status FROM payment_intents WHERE id = $1", id).Scan(&st)
	return st, err
}

// In a table that records keys, key_id is the key's column (not the id of a
// row the record belongs to): matched alone, it finds another user's record.
func (s *Store) ClaimByKeyID(ctx context.Context, key string) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO idempotency_keys (key_id, status) VALUES ($1, 'PENDING') ON CONFLICT (key_id) DO UPDATE SET updated_at = now() RETURNING key_id, status", key) // want `tenant`
	return err
}

func (s *Store) FinishByKeyID(ctx context.Context, key string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE idempotency_keys SET status = 'COMPLETED' WHERE key_id = $1", key) // want `tenant`
	return err
}

func (s *Store) FinishByKeyIDScoped(ctx context.Context, user, key string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE idempotency_keys SET status = 'COMPLETED' WHERE key_id = $1 AND user_id = $2", key, user)
	return err
}
