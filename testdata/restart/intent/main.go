// Command intent is a correct payment handler, the article's design: write
// the intent before acting, derive the idempotency key from that frozen
// payload with the derive package, take a lease on a ledger row, call the
// provider, store its response. Any attempt computes the same key, so a
// redelivery after any crash is replayed by the provider, never re-executed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"

	// mutant:normalize
	"github.com/idemcheck/idemcheck/derive"
	// mutant> "crypto/sha256"
	// mutant:end
)

const action = "pix.cobranca"

type message struct {
	MessageID string          `json:"message_id"`
	Tenant    string          `json:"tenant"`
	Payment   json.RawMessage `json:"payment"`
}

func main() {
	ctx := context.Background()
	var msg message
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil || msg.MessageID == "" || msg.Tenant == "" {
		fail(1, "bad message: %v", err)
	}
	secret := []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY"))
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)

	// mutant:persist-first
	// mutant> if status, _ := post(deriveKey(secret, msg), string(msg.Payment)); status != http.StatusOK { // the charge goes out before the intent is written or read
	// mutant> 	fail(75, "provider: %d", status)
	// mutant> }
	// mutant:end
	payload, key := freezeIntent(ctx, conn, secret, msg)
	if !takeLease(ctx, conn, key) {
		return // already done: acknowledge
	}
	status, body := post(key, payload)
	switch {
	case status == http.StatusOK:
		var out struct{ ID string }
		_ = json.Unmarshal(body, &out)
		if _, err := conn.Exec(ctx, `update ledger set status = 'done', charge_id = $2, response = $3, lease_pid = null, updated_at = now() where idem_key = $1`,
			key, out.ID, string(body)); err != nil {
			fail(75, "database: %v", err)
		}
	case status == http.StatusConflict || status >= 500:
		fail(75, "provider busy (%d): retry later", status)
	default:
		fail(1, "provider refused the payment (%d): %s", status, body)
	}
}

// freezeIntent writes the intent once and returns the frozen payload and its
// key, whatever this attempt's copy of the message says.
func freezeIntent(ctx context.Context, conn *pgx.Conn, secret []byte, msg message) (string, string) {
	derived := deriveKey(secret, msg)
	// A redelivery finds its intent by message id; the same payment re-sent
	// under a new message id finds it by the key derived from the payment.
	insert := `insert into intents (tenant, message_id, action, payload, idem_key) values ($1, $2, $3, $4, $5)`
	// mutant:on-conflict
	insert += ` on conflict do nothing`
	// mutant:end
	if _, err := conn.Exec(ctx, insert, msg.Tenant, msg.MessageID, action, string(msg.Payment), derived); err != nil {
		fail(75, "database: %v", err)
	}
	var payload, key string
	if err := conn.QueryRow(ctx, `select payload, idem_key from intents where tenant = $1 and (message_id = $2 or idem_key = $3)
		order by message_id = $2 desc limit 1`,
		msg.Tenant, msg.MessageID, derived).Scan(&payload, &key); err != nil {
		fail(75, "database: %v", err)
	}
	// mutant:frozen-row
	// mutant> payload = string(msg.Payment) // this attempt's copy, not the frozen row
	// mutant:end
	return payload, key
}

// deriveKey is the key of the payment, normalized first (derive's schema:
// the Pix key's punctuation, the amount in cents, member order), so the same
// payment spelled another way is the same key.
func deriveKey(secret []byte, msg message) string {
	// mutant:tenant-scope
	tenant := msg.Tenant
	// mutant> tenant := "" // the key leaves the tenant out: another tenant's same payment gets this one's key
	// mutant:end
	// mutant:normalize
	res, err := derive.DefaultSchema().Derive(secret, derive.Intent{Tenant: tenant, Action: action, Payload: msg.Payment})
	if err != nil {
		fail(1, "derive: %v", err)
	}
	return res.Key
	// mutant> return fmt.Sprintf("%x", sha256.Sum256(append(append(secret, tenant...), msg.Payment...))) // the bytes as spelled
	// mutant:end
}

// takeLease claims the ledger row for key. It returns false when the
// payment is already done, and exits 75 (retry later) while a live worker
// holds the lease.
func takeLease(ctx context.Context, conn *pgx.Conn, key string) bool {
	var status string
	err := conn.QueryRow(ctx, `
insert into ledger (idem_key, status, lease_pid, lease_until)
values ($1, 'started', pg_backend_pid(), now() + interval '30 seconds')
on conflict (idem_key) do update
  set lease_pid = pg_backend_pid(), lease_until = excluded.lease_until,
      drives = ledger.drives + 1, updated_at = now()
  where ledger.status = 'started'
    and (ledger.lease_until < now()
         or not exists (select 1 from pg_stat_activity where pid = ledger.lease_pid))
returning status`, key).Scan(&status)
	if err == nil {
		return true
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		fail(75, "database: %v", err)
	}
	if err := conn.QueryRow(ctx, `select status from ledger where idem_key = $1`, key).Scan(&status); err != nil {
		fail(75, "database: %v", err)
	}
	if status == "done" {
		return false
	}
	// mutant:in-progress
	fail(75, "payment %s is being driven by another worker: retry later", key[:8])
	// mutant> // another worker's live lease taken for done: acknowledged while it is mid-call
	// mutant:end
	return false
}

func post(key, payload string) (int, []byte) {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader([]byte(payload)))
	req.Header.Set("Content-Type", "application/json")
	// mutant:provider-key
	req.Header.Set("Idempotency-Key", key)
	// mutant:end
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(75, "provider: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "intent: "+format+"\n", args...)
	os.Exit(code)
}
