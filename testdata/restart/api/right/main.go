// Command right is an HTTP API that takes Idempotency-Key from its clients
// and keeps the whole contract: keys are per client, the request is
// fingerprinted (422 for the same key with another body), a key in progress
// answers 409 with Retry-After, the stored response is replayed byte for
// byte, a request without a key is refused with 400. A crash cannot leave a
// key stuck in "processing": the row's lock names the database session of
// the request driving it, and a dead session's lock is taken over.
//
//	right 127.0.0.1:8080
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"
)

type api struct {
	dsn    string
	secret []byte
}

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: right HOST:PORT")
	}
	a := &api{dsn: os.Getenv("DATABASE_URL"), secret: []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY"))}
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(a.serve)))
}

func (a *api) serve(w http.ResponseWriter, r *http.Request) {
	// mutant:client-scope
	client := r.Header.Get("Authorization")
	// mutant> client := "" // one key space for every client
	// mutant:end
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		reply(w, http.StatusBadRequest, `{"error":"Idempotency-Key header required"}`)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	// One connection for the whole request: its backend pid is the lock,
	// and it dies with the server.
	conn, err := pgx.Connect(r.Context(), a.dsn)
	if err != nil {
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
		return
	}
	defer conn.Close(context.Background())
	fp := fingerprint(body)
	// mutant:fingerprint
	// mutant> fp = "" // every body is the same request
	// mutant:end
	claimed, stored, err := claim(r.Context(), conn, client, key, fp)
	// mutant:in-progress
	// mutant> claimed = claimed || stored.status == "processing" // a key still running is driven again
	// mutant:end
	switch {
	case err != nil:
		log.Print(err)
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
	case stored.fingerprintDiffers:
		reply(w, http.StatusUnprocessableEntity, `{"error":"Idempotency-Key reused with a different request"}`)
	case stored.status == "done":
		// mutant:replay-response
		reply(w, stored.responseStatus, stored.responseBody) // the stored bytes, not a new rendering
		// mutant> reply(w, http.StatusOK, stored.responseBody) // a new rendering: 200, not the stored 201
		// mutant:end
	case !claimed:
		w.Header().Set("Retry-After", "1")
		reply(w, http.StatusConflict, `{"error":"a request with this Idempotency-Key is in progress"}`)
	default:
		status, out := a.createOrder(r.Context(), conn, client, key, body)
		reply(w, status, out)
	}
}

type storedKey struct {
	status             string
	fingerprintDiffers bool
	responseStatus     int
	responseBody       string
}

// claim inserts the key as processing, or takes over a processing key whose
// lock holder is gone (its server crashed). It reports whether this request
// now drives the key, and otherwise what is stored for it.
func claim(ctx context.Context, conn *pgx.Conn, client, key, fp string) (bool, storedKey, error) {
	var got string
	err := conn.QueryRow(ctx, `
insert into idempotency_keys (client_id, key, fingerprint, status, locked_by, locked_until)
values ($1, $2, $3, 'processing', pg_backend_pid(), now() + interval '30 seconds')
on conflict (client_id, key) do update
  set locked_by = pg_backend_pid(), locked_until = excluded.locked_until
  where idempotency_keys.status = 'processing'
    and idempotency_keys.fingerprint = excluded.fingerprint
    and (idempotency_keys.locked_until < now()
         or not exists (select 1 from pg_stat_activity where pid = idempotency_keys.locked_by))
returning status`, client, key, fp).Scan(&got)
	if err == nil {
		return true, storedKey{}, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return false, storedKey{}, err
	}
	var s storedKey
	var storedFP string
	var status *int
	var body *string
	err = conn.QueryRow(ctx, `select status, fingerprint, response_status, response_body from idempotency_keys where client_id = $1 and key = $2`,
		client, key).Scan(&s.status, &storedFP, &status, &body)
	if err != nil {
		return false, s, err
	}
	s.fingerprintDiffers = storedFP != fp
	if status != nil && body != nil {
		s.responseStatus, s.responseBody = *status, *body
	}
	return false, s, nil
}

// createOrder charges at the provider under a key derived from (client,
// key), so a takeover after a crash is replayed by the provider, then
// writes the order and completes the key in one transaction.
func (a *api) createOrder(ctx context.Context, conn *pgx.Conn, client, key string, body []byte) (int, string) {
	var req struct {
		Payment struct {
			Valor string `json:"valor"`
		} `json:"payment"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Payment.Valor == "" {
		return a.complete(ctx, conn, client, key, http.StatusBadRequest, `{"error":"payment.valor required"}`)
	}
	// The provider key is the server's own, scoped per client: two clients
	// may use one key for two operations.
	mac := hmac.New(sha256.New, a.secret)
	fmt.Fprintf(mac, "%s\x00%s", client, key)
	// mutant:provider-key-scope
	chargeID, err := charge(hex.EncodeToString(mac.Sum(nil)), req.Payment.Valor)
	// mutant> chargeID, err := charge(key, req.Payment.Valor) // the client's own key passed on: one key space at the provider
	// mutant:end
	if err != nil {
		// Not completed: release the lock so a retry can drive it again.
		_, _ = conn.Exec(ctx, `update idempotency_keys set locked_until = now() - interval '1 second' where client_id = $1 and key = $2`, client, key)
		log.Print(err)
		return http.StatusBadGateway, `{"error":"payment provider unavailable, retry with the same key"}`
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return http.StatusServiceUnavailable, `{"error":"database unavailable"}`
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var orderID int64
	if err := tx.QueryRow(ctx, `insert into orders (client_id, idem_key, charge_id, amount) values ($1, $2, $3, $4) returning id`,
		client, key, chargeID, req.Payment.Valor).Scan(&orderID); err != nil {
		return http.StatusServiceUnavailable, `{"error":"database unavailable"}`
	}
	out := fmt.Sprintf(`{"order_id":"ord_%d","charge_id":%q,"amount":%q}`, orderID, chargeID, req.Payment.Valor)
	const completeKey = `update idempotency_keys set status = 'done', response_status = 201, response_body = $3, locked_by = null
		where client_id = $1 and key = $2`
	// mutant:complete-in-tx
	if _, err := tx.Exec(ctx, completeKey, client, key, out); err != nil {
		return http.StatusServiceUnavailable, `{"error":"database unavailable"}`
	}
	// mutant:end
	if err := tx.Commit(ctx); err != nil {
		return http.StatusServiceUnavailable, `{"error":"database unavailable"}`
	}
	// mutant:complete-in-tx
	// mutant> if _, err := conn.Exec(ctx, completeKey, client, key, out); err != nil { // a second transaction
	// mutant> 	return http.StatusServiceUnavailable, `{"error":"database unavailable"}`
	// mutant> }
	// mutant:end
	return http.StatusCreated, out
}

// complete stores a final error answer, so its replay is the same error.
func (a *api) complete(ctx context.Context, conn *pgx.Conn, client, key string, status int, out string) (int, string) {
	_, _ = conn.Exec(ctx, `update idempotency_keys set status = 'done', response_status = $3, response_body = $4, locked_by = null
		where client_id = $1 and key = $2`, client, key, status, out)
	return status, out
}

func charge(key, amount string) (string, error) {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges",
		bytes.NewReader([]byte(fmt.Sprintf(`{"amount":%q,"currency":"BRL"}`, amount))))
	req.Header.Set("Content-Type", "application/json")
	// mutant:provider-key
	req.Header.Set("Idempotency-Key", key)
	// mutant:end
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ ID string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return "", fmt.Errorf("provider answered %d", resp.StatusCode)
	}
	return out.ID, nil
}

// fingerprint identifies the request: its JSON by value, so key order and
// spacing do not make it another request.
func fingerprint(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) == nil {
		body, _ = json.Marshal(v)
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
