package corpusunique

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// Clean: the unique constraint decides; the application reads its verdict.
func (s *Store) ClaimByConstraint(ctx context.Context, tenant, key string) (bool, error) {
	_, err := s.pool.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)", tenant, key)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return false, nil
	}
	return err == nil, err
}

// Positive: read-decide-write in a transaction, no constraint consulted.
func (s *Store) ClaimInTx(ctx context.Context, tenant, key string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var n int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		if _, err := tx.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)", tenant, key); err != nil { // want `after a select on the same table`
			return err
		}
	}
	return tx.Commit(ctx)
}
