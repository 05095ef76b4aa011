// Package appunique defines the analyzer of rule IDEM006, which reports
// idempotency records whose uniqueness is decided by the application instead of
// the database.
//
// # Analyzer IDEM006
//
// IDEM006: uniqueness decided in the application
//
// An INSERT into an idempotency, intent, dedup or processed table without ON
// CONFLICT (or ON DUPLICATE KEY / INSERT IGNORE) means the code, not the
// database, decides whether the key was seen. The usual shape is SELECT, then
// "if not found", then INSERT: a queue that redelivers while the first attempt
// is still running gets two "not found" answers and charges twice. Functions
// that handle the unique violation themselves (SQLSTATE 23505, MySQL 1062) are
// not reported: there the database decides. Neither are inserts into
// ClickHouse tables, which have no ON CONFLICT: tables the package creates
// with a ReplacingMergeTree engine (they keep one row per sorting key by
// design), and any insert through a ClickHouse client's types.
//
// # Fix
//
// Give the table a unique constraint (a composite primary key with the tenant)
// and let INSERT … ON CONFLICT DO NOTHING decide; act only when a row was
// inserted.
//
// # Bad
//
//	func handle(ctx context.Context, db *pgxpool.Pool, tenant, key string, charge func() error) error {
//		var one int
//		err := db.QueryRow(ctx, "SELECT 1 FROM idempotency_keys WHERE tenant_id = $1 AND key = $2", tenant, key).Scan(&one)
//		if err == nil {
//			return nil // seen before
//		}
//		if _, err := db.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)", tenant, key); err != nil {
//			return err
//		}
//		return charge()
//	}
//
// # Good
//
//	func handle(ctx context.Context, db *pgxpool.Pool, tenant, key string, charge func() error) error {
//		tag, err := db.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)
//			ON CONFLICT (tenant_id, key) DO NOTHING`, tenant, key)
//		if err != nil || tag.RowsAffected() == 0 {
//			return err // failed, or another delivery inserted it first
//		}
//		return charge()
//	}
package appunique
