// Package tenantscope defines the analyzer of rule IDEM007, which reports
// lookups of idempotency records by key that are not scoped by tenant.
//
// # Analyzer IDEM007
//
// IDEM007: idempotency lookup not scoped by tenant
//
// A SELECT or UPDATE on an idempotency, intent or dedup table filters by the
// key column, or one on any other table (orders, payments) filters by a
// column that says it holds the idempotency key (idempotency_key, dedup_id),
// but by no tenant column (tenant_id, client_id, account_id, …),
// or an INSERT … ON CONFLICT (key) DO UPDATE or DO NOTHING names the key but
// no tenant column in its conflict target. Keys are only unique within a
// tenant (two merchants can both send "order-1001"), so an unscoped lookup
// finds another tenant's intent: it replays their stored response (an
// upsert's RETURNING hands it back), or refuses a legitimate charge as a
// duplicate (DO NOTHING inserts nothing, and the caller takes the request
// for a repeat). Lookups and conflict targets that include a tenant column,
// or that do not name the key, are not reported; nor is a lookup that
// matches the key together with the identifier of another row the record
// belongs to (WHERE grant_id = $1 AND idempotency_key = $2, a terminal's
// id, the API key the request came with), unless an OR lets the key match
// alone. A WHERE clause ends at RETURNING, ORDER BY, LIMIT or FOR UPDATE,
// and a subquery's table is no column it filters by; SQL whose select
// list a helper returns (purchaseSelect() + " WHERE …") is read through
// the helper. A conflict target named
// by ON CONFLICT ON CONSTRAINT name is judged by the constraint's columns
// when the package defines it (a CREATE TABLE or ALTER TABLE … ADD
// CONSTRAINT name UNIQUE (…) or PRIMARY KEY (…) string); a constraint
// defined elsewhere, or defined twice with different columns, is not
// reported.
//
// A lookup nothing calls yet is reported too: the SQL is the defect, and
// the first caller inherits it.
//
// # Fix
//
// Make the tenant column part of the primary key and of every lookup by key.
//
// # Bad
//
//	func storedResponse(ctx context.Context, db *pgxpool.Pool, key string) (string, error) {
//		var resp string
//		err := db.QueryRow(ctx, "SELECT response FROM idempotency_keys WHERE idempotency_key = $1", key).Scan(&resp)
//		return resp, err
//	}
//
// # Good
//
//	func storedResponse(ctx context.Context, db *pgxpool.Pool, tenant, key string) (string, error) {
//		var resp string
//		err := db.QueryRow(ctx,
//			"SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2",
//			tenant, key).Scan(&resp)
//		return resp, err
//	}
//
// # Bad (Python)
//
//	def stored_response(cur, key):
//	    cur.execute("SELECT response FROM idempotency_keys WHERE idempotency_key = %s", (key,))
//	    return cur.fetchone()
//
// # Good (Python)
//
//	def stored_response(cur, tenant, key):
//	    cur.execute(
//	        "SELECT response FROM idempotency_keys WHERE tenant_id = %s AND idempotency_key = %s",
//	        (tenant, key),
//	    )
//	    return cur.fetchone()
//
// # Bad (TypeScript)
//
//	export async function storedResponse(pool: Pool, key: string) {
//	  return pool.query("SELECT response FROM idempotency_keys WHERE idempotency_key = $1", [key]);
//	}
//
// # Good (TypeScript)
//
//	export async function storedResponse(pool: Pool, tenant: string, key: string) {
//	  return pool.query(
//	    "SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2",
//	    [tenant, key],
//	  );
//	}
package tenantscope
