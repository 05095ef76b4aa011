package appunique

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

const insertIntent = `INSERT INTO payment_intents (tenant_id, idempotency_key, amount_cents)
VALUES ($1, $2, $3)`

func readDecideWrite(ctx context.Context, pool *pgxpool.Pool, tenant, key string) error {
	var one int
	err := pool.QueryRow(ctx, "SELECT 1 FROM idempotency_keys WHERE tenant_id = $1 AND key = $2", tenant, key).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		_, err = pool.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)", tenant, key) // want `insert into idempotency_keys after a select on the same table without on conflict`
	}
	return err
}

func plainInsertConst(ctx context.Context, db *sql.DB, tenant, key string) error {
	_, err := db.ExecContext(ctx, insertIntent, tenant, key, 100) // want `insert into payment_intents without on conflict`
	return err
}

func concatenated(ctx context.Context, tx pgx.Tx, tenant, key string) error {
	q := "INSERT INTO public.dedup_messages " +
		"(tenant_id, message_id) VALUES ($1, $2)"
	_, err := tx.Exec(ctx, q, tenant, key) // want `insert into dedup_messages without on conflict`
	return err
}

func sqlxInsert(db *sqlx.DB, key string) {
	var n int
	db.Get(&n, `SELECT count(*) FROM intencoes_pagamento WHERE chave = $1`, key)
	if n == 0 {
		db.MustExec(`INSERT INTO intencoes_pagamento (chave) VALUES ($1)`, key) // want `insert into intencoes_pagamento after a select`
	}
}

func batched(b *pgx.Batch, id string) {
	b.Queue(`insert into "processed_messages" (message_id) values ($1)`, id) // want `insert into processed_messages without on conflict`
}

func mysqlTx(tx *sql.Tx, key string) {
	tx.Exec("INSERT INTO acoes_pendentes (chave) VALUES (?)", key) // want `insert into acoes_pendentes without on conflict`
}

// ---- negatives ----

func onConflict(ctx context.Context, pool *pgxpool.Pool, tenant, key string) (bool, error) {
	tag, err := pool.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)
		ON CONFLICT (tenant_id, key) DO NOTHING`, tenant, key)
	return tag.RowsAffected() == 1, err
}

func onConflictAfterSelect(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	var one int
	pool.QueryRow(ctx, "SELECT 1 FROM idempotency_keys WHERE tenant_id = $1 AND key = $2", tenant, key).Scan(&one)
	pool.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING", tenant, key)
}

func mysqlUpsert(db *sql.DB, key string) {
	db.Exec("INSERT INTO idempotency_keys (k) VALUES (?) ON DUPLICATE KEY UPDATE k = k", key)
	db.Exec("INSERT IGNORE INTO dedup (k) VALUES (?)", key)
}

func otherTable(ctx context.Context, pool *pgxpool.Pool, id string) {
	pool.Exec(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	pool.Exec(ctx, "INSERT INTO transacoes (id) VALUES ($1)", id)
	pool.Exec(ctx, "INSERT INTO audit_log (msg) VALUES ('insert into idempotency_keys')")
}

func uniqueViolationHandled(ctx context.Context, pool *pgxpool.Pool, key string) error {
	_, err := pool.Exec(ctx, "INSERT INTO idempotency_keys (key) VALUES ($1)", key)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return nil // already recorded: the constraint decided
	}
	return err
}

func dynamic(ctx context.Context, pool *pgxpool.Pool, table, key string) {
	pool.Exec(ctx, "INSERT INTO "+table+" (key) VALUES ($1)", key)
}

func comment(ctx context.Context, pool *pgxpool.Pool, key string) {
	pool.Exec(ctx, `-- never insert into idempotency_keys without a constraint
		INSERT INTO orders (key) VALUES ($1)`, key)
}

func suppressed(ctx context.Context, pool *pgxpool.Pool, key string) {
	//idemcheck:ignore IDEM006 the table is append-only audit, duplicates are fine
	pool.Exec(ctx, "INSERT INTO processed_events (key) VALUES ($1)", key)
}
