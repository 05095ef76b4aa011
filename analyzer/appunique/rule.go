package appunique

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM006.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem006",
	Analyzer: "appunique",
	ID:       "IDEM006",
	Title:    "uniqueness decided in the application",
	Why: `An INSERT into an idempotency/intent/dedup table without ON CONFLICT (or ON
DUPLICATE KEY / INSERT IGNORE) means the code, not the database, decides
whether the key was seen. The usual shape is SELECT, then "if not found",
then INSERT: a queue that redelivers while the first attempt is still running
gets two "not found" answers and charges twice. Put a unique constraint (a
composite primary key with the tenant) on the table and let the insert
itself decide: INSERT ... ON CONFLICT DO NOTHING RETURNING, and act only when
a row came back.`,
	Fix: `Give the table a unique constraint (a composite primary key with the tenant) and
let INSERT ... ON CONFLICT DO NOTHING RETURNING decide; act only when a row
came back.`,
	Bad: `err := db.QueryRow(ctx, "SELECT 1 FROM idempotency_keys WHERE tenant_id=$1 AND key=$2", t, k).Scan(&one)
if errors.Is(err, pgx.ErrNoRows) {
	db.Exec(ctx, "INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)", t, k)
	charge()
}`,
	Good: `tag, err := db.Exec(ctx, ` + "`" + `INSERT INTO idempotency_keys (tenant_id, key) VALUES ($1, $2)
	ON CONFLICT (tenant_id, key) DO NOTHING` + "`" + `, t, k)
if err == nil && tag.RowsAffected() == 1 {
	charge()
}`,
}
