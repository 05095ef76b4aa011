package appunique

import (
	"context"
	"database/sql"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// ClickHouse has no ON CONFLICT: a ReplacingMergeTree table deduplicates
// rows with the same sorting key by design.
const createProcessed = `
CREATE TABLE IF NOT EXISTS analytics.processed_webhooks ON CLUSTER main (
	event_id String,
	idempotency_key String,
	received_at DateTime
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/{shard}/processed_webhooks', '{replica}', received_at)
ORDER BY (idempotency_key)`

// A plain MergeTree keeps every row: duplicates stay duplicates.
const createIntents = `CREATE TABLE payment_intents_log (idempotency_key String, amount Int64)
ENGINE = MergeTree ORDER BY idempotency_key`

func migrate(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, createProcessed)
	db.ExecContext(ctx, createIntents)
}

func recordWebhook(ctx context.Context, db *sql.DB, event, key string) {
	db.ExecContext(ctx, "INSERT INTO analytics.processed_webhooks (event_id, idempotency_key, received_at) VALUES (?, ?, now())", event, key)
}

func logIntent(ctx context.Context, db *sql.DB, key string) {
	db.ExecContext(ctx, "INSERT INTO payment_intents_log (idempotency_key, amount) VALUES (?, ?)", key, 100) // want `insert into payment_intents_log without on conflict`
}

// Through a ClickHouse driver the table is a ClickHouse table: there is no
// unique constraint to let decide, so the rule has nothing to suggest.
func recordViaNative(ctx context.Context, conn driver.Conn, key string) error {
	return conn.Exec(ctx, "INSERT INTO dedup_events (idempotency_key) VALUES (?)", key)
}
