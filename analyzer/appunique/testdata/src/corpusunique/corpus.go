// Package corpusunique is an independent labelled corpus for IDEM006:
// inserts into idempotency/intent/dedup tables with and without a
// database-enforced conflict clause, through database/sql, pgx and sqlx.
package corpusunique

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

type Store struct {
	db   *sql.DB
	pool *pgxpool.Pool
	x    *sqlx.DB
}

const insertProcessed = `INSERT INTO processed_messages (tenant_id, message_key, processed_at)
VALUES ($1, $2, now())`

const insertProcessedOnce = `INSERT INTO processed_messages (tenant_id, message_key, processed_at)
VALUES ($1, $2, now())
ON CONFLICT (tenant_id, message_key) DO NOTHING`

// --- positives -------------------------------------------------------------

func (s *Store) SaveKey(ctx context.Context, tenant, key string, response []byte) error {
	_, err := s.db.ExecContext(ctx, // want `without on conflict`
		"INSERT INTO idempotency_keys (tenant_id, idempotency_key, response) VALUES ($1, $2, $3)",
		tenant, key, response)
	return err
}

func (s *Store) BeginIntent(ctx context.Context, tenant, key string, cents int64) (bool, error) {
	var id int64
	err := s.pool.QueryRow(ctx,
		"SELECT id FROM payment_intents WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key).Scan(&id)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return false, err
	}
	_, err = s.pool.Exec(ctx, // want `without on conflict`
		"INSERT INTO payment_intents (tenant_id, idempotency_key, amount_cents, status) VALUES ($1, $2, $3, 'pending')",
		tenant, key, cents)
	return err == nil, err
}

func (s *Store) MarkProcessed(tenant, msgKey string) {
	s.x.MustExec(insertProcessed, tenant, msgKey) // want `without on conflict`
}

func (s *Store) RecordEvent(ctx context.Context, tx pgx.Tx, tenant, eventID string) error {
	_, err := tx.Exec(ctx, `insert into dedup_events (tenant_id, event_id) values ($1, $2)`, tenant, eventID) // want `without on conflict`
	return err
}

type intentRow struct {
	TenantID string `db:"tenant_id"`
	Key      string `db:"idempotency_key"`
	Cents    int64  `db:"amount_cents"`
}

func (s *Store) SaveIntentNamed(row intentRow) error {
	_, err := s.x.NamedExec( // want `without on conflict`
		`INSERT INTO payment_intents (tenant_id, idempotency_key, amount_cents)
		VALUES (:tenant_id, :idempotency_key, :amount_cents)`, row)
	return err
}

func (s *Store) SaveIntencao(ctx context.Context, tenant, chave string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO intencao_pagamento (tenant_id, chave) VALUES ($1, $2)", tenant, chave) // want `without on conflict`
	return err
}

// --- clean -----------------------------------------------------------------

func (s *Store) ClaimKey(ctx context.Context, tenant, key string) (bool, error) {
	tag, err := s.pool.Exec(ctx,
		`INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)
		 ON CONFLICT (tenant_id, idempotency_key) DO NOTHING`, tenant, key)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

func (s *Store) MarkProcessedOnce(tenant, msgKey string) {
	s.x.MustExec(insertProcessedOnce, tenant, msgKey)
}

func (s *Store) CreateOrder(ctx context.Context, tenant, orderID string) error {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM orders WHERE tenant_id = $1 AND id = $2", tenant, orderID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders (tenant_id, id) VALUES ($1, $2)", tenant, orderID)
	return err
}

func (s *Store) MarkProcessedMySQL(ctx context.Context, msgKey string) error {
	_, err := s.db.ExecContext(ctx, "INSERT IGNORE INTO processed_messages (message_key) VALUES (?)", msgKey)
	return err
}

func (s *Store) UpsertKeyMySQL(ctx context.Context, tenant, key string, resp []byte) error {
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO idempotency_keys (tenant_id, idem_key, response) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE response = response",
		tenant, key, resp)
	return err
}

func (s *Store) UpsertIntent(ctx context.Context, tenant, key string, cents int64) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `
		INSERT INTO payment_intents (tenant_id, idempotency_key, amount_cents)
		VALUES ($1, $2, $3)
		ON CONFLICT (tenant_id, idempotency_key) DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
		RETURNING id`, tenant, key, cents).Scan(&id)
	return id, err
}

func (s *Store) AuditLog(ctx context.Context, tenant, action string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO audit_log (tenant_id, action) VALUES ($1, $2)", tenant, action)
	return err
}

// --- more shapes -----------------------------------------------------------

func (s *Store) QueueIntents(ctx context.Context, tenant string, keys []string) {
	b := &pgx.Batch{}
	for _, k := range keys {
		b.Queue("INSERT INTO payment_intents (tenant_id, idempotency_key) VALUES ($1, $2)", tenant, k) // want `without on conflict`
	}
	s.pool.SendBatch(ctx, b)
}

func (s *Store) QueueIntentsOnce(ctx context.Context, tenant string, keys []string) {
	b := &pgx.Batch{}
	for _, k := range keys {
		b.Queue("INSERT INTO payment_intents (tenant_id, idempotency_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", tenant, k)
	}
	s.pool.SendBatch(ctx, b)
}

func (s *Store) SaveKeyLocalQuery(ctx context.Context, tx *sql.Tx, tenant, key string) error {
	q := "INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)"
	_, err := tx.ExecContext(ctx, q, tenant, key) // want `without on conflict`
	return err
}

func (s *Store) SelectKeyOnly(ctx context.Context, tenant, key string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key).Scan(&n)
	return n > 0, err
}

func (s *Store) UpdateIntentStatus(ctx context.Context, tenant, key string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payment_intents SET status = 'captured' WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key)
	return err
}
