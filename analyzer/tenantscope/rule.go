package tenantscope

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM007.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem007",
	Analyzer: "tenantscope",
	ID:       "IDEM007",
	Title:    "idempotency lookup not scoped by tenant",
	Why: `A SELECT/UPDATE on an idempotency table filters by the key column but not by
a tenant column, or an INSERT … ON CONFLICT (key) DO UPDATE names the key but
no tenant column in its conflict target. Keys are only unique within a tenant
(two merchants can both send "order-1001"), so an unscoped lookup finds
another tenant's intent: it replays their stored response (an upsert's
RETURNING hands it back), or refuses a legitimate charge as a duplicate.
Make the tenant part of the primary key and of every lookup.`,
	Fix: `Make the tenant column part of the primary key and of every lookup by key.`,
	Bad: `row := db.QueryRow(ctx, "SELECT response FROM idempotency_keys WHERE idempotency_key = $1", key)`,
	Good: `row := db.QueryRow(ctx,
	"SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2",
	tenant, key)`,
}
