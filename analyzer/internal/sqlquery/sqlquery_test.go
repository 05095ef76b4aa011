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
