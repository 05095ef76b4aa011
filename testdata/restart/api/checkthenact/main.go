// Command checkthenact is an Idempotency-Key middleware that looks before
// it claims: SELECT the key, and when there is no row, INSERT one as
// processing with a provider key of its own. Without a primary key on
// (client, key) two requests sent together both find nothing, both insert,
// and the client's one operation is charged twice under two provider keys.
// One request at a time (a retry, a second request while the first is
// running) sees the row and gets the stored answer or 409: only
// restart-test's concurrent:2 round, which releases both requests at the
// same instant, shows the race.
//
//	checkthenact 127.0.0.1:8080
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: checkthenact HOST:PORT")
	}
	dsn := os.Getenv("DATABASE_URL")
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, dsn)
	})))
}

func serve(w http.ResponseWriter, r *http.Request, dsn string) {
	client, key := r.Header.Get("Authorization"), r.Header.Get("Idempotency-Key")
	if key == "" {
		reply(w, http.StatusBadRequest, `{"error":"Idempotency-Key header required"}`)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	ctx := r.Context()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
		return
	}
	defer conn.Close(context.Background())

	// Check…
	var status string
	var storedStatus *int
	var storedBody *string
	err = conn.QueryRow(ctx, `select status, response_status, response_body from idempotency_keys
		where client_id = $1 and key = $2 limit 1`, client, key).Scan(&status, &storedStatus, &storedBody)
	switch {
	case err == nil && status == "done" && storedStatus != nil && storedBody != nil:
		reply(w, *storedStatus, *storedBody)
		return
	case err == nil:
		w.Header().Set("Retry-After", "1")
		reply(w, http.StatusConflict, `{"error":"a request with this Idempotency-Key is in progress"}`)
		return
	case err != pgx.ErrNoRows:
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
		return
	}
	// …then act: nothing stops a second request that checked meanwhile.
	var providerKey string
	if err := conn.QueryRow(ctx, `insert into idempotency_keys (client_id, key, provider_key, status)
		values ($1, $2, gen_random_uuid()::text, 'processing') returning provider_key`, client, key).Scan(&providerKey); err != nil {
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
		return
	}
	var req struct {
		Payment struct {
			Valor string `json:"valor"`
		} `json:"payment"`
	}
	_ = json.Unmarshal(body, &req)
	chargeID, err := charge(providerKey, req.Payment.Valor)
	if err != nil {
		log.Print(err)
		reply(w, http.StatusBadGateway, `{"error":"payment provider unavailable"}`)
		return
	}
	var orderID int64
	if err := conn.QueryRow(ctx, `insert into orders (client_id, idem_key, charge_id, amount) values ($1, $2, $3, $4) returning id`,
		client, key, chargeID, req.Payment.Valor).Scan(&orderID); err != nil {
		reply(w, http.StatusServiceUnavailable, `{"error":"database unavailable"}`)
		return
	}
	out := fmt.Sprintf(`{"order_id":"ord_%d","charge_id":%q}`, orderID, chargeID)
	_, _ = conn.Exec(ctx, `update idempotency_keys set status = 'done', response_status = 201, response_body = $3
		where client_id = $1 and key = $2 and provider_key = $4`, client, key, out, providerKey)
	reply(w, http.StatusCreated, out)
}

func charge(key, amount string) (string, error) {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges",
		bytes.NewReader([]byte(fmt.Sprintf(`{"amount":%q,"currency":"BRL"}`, amount))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
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

func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
