package sqlquery

import (
	"slices"
	"testing"
)

func TestInserts(t *testing.T) {
	for _, tc := range []struct {
		sql    string
		tables []string
		yields bool
	}{
		{"INSERT INTO idempotency_keys (k) VALUES ($1)", []string{"idempotency_keys"}, false},
		{"insert into public.\"Intents\" (k) values ($1) on conflict (k) do nothing", []string{"intents"}, true},
		{"INSERT IGNORE INTO dedup (k) VALUES (?)", []string{"dedup"}, true},
		{"INSERT INTO t (k) VALUES (?) ON DUPLICATE KEY UPDATE k = k", []string{"t"}, true},
		{"INSERT OR IGNORE INTO processed (id) VALUES (?)", []string{"processed"}, true},
		{"-- insert into idempotency_keys\nINSERT INTO orders (note) VALUES ('insert into intents')", []string{"orders"}, false},
		{"WITH x AS (INSERT INTO intents (k) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id) SELECT id FROM x", []string{"intents"}, true},
	} {
		tables, yields := Inserts(Normalize(tc.sql))
		if !slices.Equal(tables, tc.tables) || yields != tc.yields {
			t.Errorf("%q: tables %v yields %v, want %v %v", tc.sql, tables, yields, tc.tables, tc.yields)
		}
	}
}

func TestLookups(t *testing.T) {
	ls := Lookups(Normalize("SELECT k.status FROM idempotency_keys AS k WHERE k.tenant_id = $1 AND k.idempotency_key = $2"))
	if len(ls) != 1 || ls[0].Kind != "select" || ls[0].Table != "idempotency_keys" || !slices.Contains(ls[0].Where, "tenant_id") || !slices.Contains(ls[0].Where, "idempotency_key") {
		t.Errorf("select: %+v", ls)
	}
	ls = Lookups(Normalize("UPDATE intents i SET status = 'done' WHERE i.key = $1"))
	if len(ls) != 1 || ls[0].Kind != "update" || ls[0].Table != "intents" || !slices.Contains(ls[0].Where, "key") {
		t.Errorf("update: %+v", ls)
	}
	if ls := Lookups(Normalize("INSERT INTO t (k) VALUES ($1) ON CONFLICT (k) DO UPDATE SET v = excluded.v")); len(ls) != 0 {
		t.Errorf("upsert is not a lookup: %+v", ls)
	}
}

func TestNames(t *testing.T) {
	for name, want := range map[string]bool{
		"idempotency_keys": true, "payment_intents": true, "intencoes_pagamento": true, "acoes": true,
		"fila_acoes": true, "dedup_messages": true, "processed_events": true,
		"orders": false, "transacoes": false, "ledger": false,
	} {
		if IsIdempotencyTable(nil, name) != want {
			t.Errorf("IsIdempotencyTable(%q) = %v", name, !want)
		}
	}
	for col, want := range map[string]bool{"idempotency_key": true, "key": true, "chave": true, "dedup_id": true, "id": false, "message_id": false} {
		if IsKeyColumn(col) != want {
			t.Errorf("IsKeyColumn(%q) = %v", col, !want)
		}
	}
	for col, want := range map[string]bool{"tenant_id": true, "TENANT": true, "account_id": true, "org_tenant_id": true, "user_id": true, "project_id": true, "order_id": false} {
		if IsTenantColumn(nil, col) != want {
			t.Errorf("IsTenantColumn(%q) = %v", col, !want)
		}
	}
}

// TestUnscopedOwner: a key matched together with the identifier of the row
// its owner (a grant, a terminal, an API key) is scoped; alone, or next to
// an OR that lets it match alone, it is not.
func TestUnscopedOwner(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT * FROM api_payments WHERE idempotency_key = $1":                                                                                           true,
		"SELECT EXISTS (SELECT 1 FROM api_usage_events WHERE grant_id = $1 AND idempotency_key = $2)":                                                     false,
		"SELECT * FROM nfc_authorizations WHERE terminal_id = $1 AND idempotency_key = $2 FOR UPDATE":                                                     false,
		"SELECT * FROM api_requests WHERE api_key_hash = $1 AND idempotency_key = $2":                                                                     false,
		"SELECT * FROM settlements WHERE provider = $1 AND (idempotency_key = $2 OR provider_ref_id = $2)":                                                true,
		"SELECT * FROM payments WHERE idempotency_key = $1 AND status = 'pending'":                                                                        true,
		"UPDATE idempotency_keys SET response = $2 WHERE key = $1":                                                                                        true,
		"SELECT * FROM idempotency_keys WHERE id = $1 AND key = $2":                                                                                       true,
		"UPDATE payments SET status = $2 WHERE id = $1 RETURNING id, order_id, idempotency_key":                                                           false,
		"SELECT * FROM payments WHERE id = $1 ORDER BY idempotency_key":                                                                                   false,
		"DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at < NOW() LIMIT 100)":                                   false,
		"SELECT * FROM intents WHERE idempotency_key = $1 AND status NOT IN (SELECT status FROM blocked ORDER BY created_at LIMIT 10) AND tenant_id = $2": false,
		"SELECT * FROM intents WHERE id IN (SELECT id FROM recent LIMIT 10) AND idempotency_key = $1":                                                     true,
	} {
		if got := len(Unscoped(nil, Normalize(sql), nil)) > 0; got != want {
			t.Errorf("%q: reported %v, want %v", sql, got, want)
		}
	}
}
