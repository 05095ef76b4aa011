package tenantscope

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

const lookupByKey = "SELECT response FROM idempotency_keys WHERE idempotency_key = $1"

func selectByKey(ctx context.Context, pool *pgxpool.Pool, key string) {
	var resp []byte
	pool.QueryRow(ctx, lookupByKey, key).Scan(&resp) // want `select on idempotency_keys filters by idempotency_key without a tenant column`
}

func updateByKey(ctx context.Context, tx pgx.Tx, key string) {
	const q = `UPDATE payment_intents SET status = 'done', tenant_id = tenant_id
		WHERE idempotency_key = $1`
	tx.Exec(ctx, q, key) // want `update on payment_intents filters by idempotency_key without a tenant column`
}

func aliased(ctx context.Context, db *sql.DB, key string) {
	db.QueryRowContext(ctx, "SELECT i.tenant_id, i.status FROM public.intents AS i WHERE i.dedup_key = $1", key) // want `select on intents filters by dedup_key`
}

func sqlxGet(db *sqlx.DB, key string) {
	var status string
	db.Get(&status, "SELECT status FROM intencao_pagamento WHERE chave_idempotencia = ?", key) // want `select on intencao_pagamento filters by chave_idempotencia`
}

func concatenated(ctx context.Context, pool *pgxpool.Pool, key string) {
	q := "SELECT status FROM idempotency_keys" + " WHERE key = $1 FOR UPDATE"
	pool.QueryRow(ctx, q, key) // want `select on idempotency_keys filters by key without a tenant column`
}

// ---- negatives ----

func scoped(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	pool.QueryRow(ctx, "SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2", tenant, key)
	pool.Exec(ctx, "UPDATE payment_intents SET status = 'done' WHERE account_id = $1 AND idempotency_key = $2", tenant, key)
	pool.QueryRow(ctx, `SELECT status FROM intents WHERE client_id = $1 AND dedup_key = $2`, tenant, key)
}

func byID(ctx context.Context, pool *pgxpool.Pool, id int64) {
	pool.QueryRow(ctx, "SELECT status FROM payment_intents WHERE id = $1", id)
}

func otherTable(ctx context.Context, pool *pgxpool.Pool, key string) {
	pool.QueryRow(ctx, "SELECT value FROM api_keys WHERE api_key = $1", key)
	pool.QueryRow(ctx, "SELECT payload FROM cache WHERE cache_key = $1", key)
}

func noWhere(ctx context.Context, pool *pgxpool.Pool) {
	pool.Query(ctx, "SELECT idempotency_key FROM idempotency_keys ORDER BY created_at")
}

func insertOnly(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	pool.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", tenant, key)
}

func suppressed(ctx context.Context, pool *pgxpool.Pool, key string) {
	//idemcheck:ignore IDEM007 single-tenant deployment
	pool.QueryRow(ctx, "SELECT status FROM idempotency_keys WHERE idempotency_key = $1", key)
}

// ---- upserts: the conflict target decides whose row is updated ----

func upsertByKey(ctx context.Context, pool *pgxpool.Pool, tenant, key string, resp []byte) {
	const q = `INSERT INTO idempotency_keys (tenant_id, idempotency_key, response)
		VALUES ($1, $2, $3)
		ON CONFLICT (idempotency_key) DO UPDATE SET last_seen = now()
		RETURNING response`
	pool.QueryRow(ctx, q, tenant, key, resp) // want `insert on idempotency_keys with on conflict \(idempotency_key\) do update has no tenant column in the conflict target: a key another tenant used updates that tenant's record and returns it`
}

func upsertNoReturning(ctx context.Context, db *sql.DB, key string) {
	db.ExecContext(ctx, "insert into public.payment_intents (dedup_key, status) values ($1, 'new') on conflict (dedup_key) where status <> 'void' do update set status = excluded.status", key) // want `insert on payment_intents with on conflict \(dedup_key\) do update has no tenant column in the conflict target: a key another tenant used overwrites that tenant's record`
}

func upsertScoped(ctx context.Context, pool *pgxpool.Pool, tenant, key string, resp []byte) {
	pool.QueryRow(ctx, `INSERT INTO idempotency_keys (tenant_id, idempotency_key, response) VALUES ($1, $2, $3)
		ON CONFLICT (tenant_id, idempotency_key) DO UPDATE SET last_seen = now() RETURNING response`, tenant, key, resp)
	pool.QueryRow(ctx, `INSERT INTO idempotency_keys (merchant_id, idempotency_key) VALUES ($1, $2)
		ON CONFLICT (idempotency_key, merchant_id) DO UPDATE SET last_seen = now() RETURNING response`, tenant, key)
}

func upsertOtherTable(ctx context.Context, pool *pgxpool.Pool, key string) {
	pool.QueryRow(ctx, `INSERT INTO cache (cache_key, v) VALUES ($1, 1) ON CONFLICT (cache_key) DO UPDATE SET v = cache.v + 1 RETURNING v`, key)
}

// ---- do nothing: a key another tenant used makes this tenant's insert a no-op ----

func claimByKey(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	const q = `INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)
		ON CONFLICT (idempotency_key) DO NOTHING`
	pool.Exec(ctx, q, tenant, key) // want `insert on idempotency_keys with on conflict \(idempotency_key\) do nothing has no tenant column in the conflict target: a key another tenant used turns this insert into a no-op, so this tenant's request is taken for a duplicate`
}

func claimReturning(ctx context.Context, db *sql.DB, key string) {
	db.QueryRowContext(ctx, "insert into intents (dedup_key, status) values ($1, 'new') on conflict (dedup_key) where status <> 'void' do nothing returning id", key) // want `insert on intents with on conflict \(dedup_key\) do nothing has no tenant column`
}

func claimScoped(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	pool.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)
		ON CONFLICT (tenant_id, idempotency_key) DO NOTHING`, tenant, key)
	pool.Exec(ctx, `INSERT INTO intents (merchant_id, dedup_key) VALUES ($1, $2)
		ON CONFLICT (dedup_key, merchant_id) DO NOTHING`, tenant, key)
}

func claimOtherTable(ctx context.Context, pool *pgxpool.Pool, key string) {
	pool.Exec(ctx, `INSERT INTO cache (cache_key, v) VALUES ($1, 1) ON CONFLICT (cache_key) DO NOTHING`, key)
}

// ---- on constraint: resolved from the schema in this package ----

const schema = `
CREATE TABLE payment_intents (
	id         bigserial PRIMARY KEY,
	tenant_id  text NOT NULL,
	dedup_key  text NOT NULL,
	CONSTRAINT payment_intents_dedup_uniq UNIQUE (dedup_key)
);
CREATE TABLE idempotency_records (
	tenant_id       text NOT NULL,
	idempotency_key text NOT NULL,
	response        bytea,
	CONSTRAINT idempotency_records_pk PRIMARY KEY (tenant_id, idempotency_key)
);`

var migrations = []string{
	"ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_key_uniq UNIQUE (idempotency_key)",
	// The same name with other columns in another migration: ambiguous.
	"ALTER TABLE intents ADD CONSTRAINT intents_uniq UNIQUE (dedup_key)",
	"ALTER TABLE intents ADD CONSTRAINT intents_uniq UNIQUE (client_id, dedup_key)",
}

func migrate(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, schema)
	for _, m := range migrations {
		db.ExecContext(ctx, m)
	}
}

func upsertOnConstraint(ctx context.Context, pool *pgxpool.Pool, tenant, key string, resp []byte) {
	const upd = `INSERT INTO payment_intents (tenant_id, dedup_key) VALUES ($1, $2)
		ON CONFLICT ON CONSTRAINT payment_intents_dedup_uniq DO UPDATE SET dedup_key = excluded.dedup_key
		RETURNING id`
	pool.QueryRow(ctx, upd, tenant, key) // want `insert on payment_intents with on conflict on constraint payment_intents_dedup_uniq \(dedup_key\) do update has no tenant column in the conflict target: a key another tenant used updates that tenant's record and returns it`
	const claim = `INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)
		ON CONFLICT ON CONSTRAINT idempotency_keys_key_uniq DO NOTHING`
	pool.Exec(ctx, claim, tenant, key) // want `insert on idempotency_keys with on conflict on constraint idempotency_keys_key_uniq \(idempotency_key\) do nothing has no tenant column`
}

func upsertOnScopedConstraint(ctx context.Context, pool *pgxpool.Pool, tenant, key string, resp []byte) {
	pool.QueryRow(ctx, `INSERT INTO idempotency_records (tenant_id, idempotency_key, response) VALUES ($1, $2, $3)
		ON CONFLICT ON CONSTRAINT idempotency_records_pk DO UPDATE SET response = excluded.response
		RETURNING response`, tenant, key, resp)
}

// A constraint defined elsewhere (another package, a .sql migration): its
// columns are unknown, so no guess.
func upsertOnUnknownConstraint(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	pool.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, idempotency_key) VALUES ($1, $2)
		ON CONFLICT ON CONSTRAINT idempotency_keys_tenant_key DO NOTHING`, tenant, key)
}

// A name defined twice with different columns: ambiguous, no guess.
func upsertOnAmbiguousConstraint(ctx context.Context, pool *pgxpool.Pool, tenant, key string) {
	pool.Exec(ctx, `INSERT INTO intents (client_id, dedup_key) VALUES ($1, $2)
		ON CONFLICT ON CONSTRAINT intents_uniq DO NOTHING`, tenant, key)
}

// The select list kept in a helper that returns it; the WHERE written at
// the call.
func purchaseSelect() string {
	return "SELECT id, status, payer_wallet FROM marketplace_purchases"
}

func purchaseByKey(ctx context.Context, pool *pgxpool.Pool, key string) {
	pool.QueryRow(ctx, purchaseSelect()+" WHERE idempotency_key = $1", key) // want `select on marketplace_purchases filters by idempotency_key without a tenant column`
}

func purchaseByWalletAndKey(ctx context.Context, pool *pgxpool.Pool, wallet, key string) {
	pool.QueryRow(ctx, purchaseSelect()+" WHERE payer_wallet_id = $1 AND idempotency_key = $2", wallet, key)
}
