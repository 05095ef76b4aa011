// Command holdcapture is a broken two-step payment handler: it places a
// hold with a key derived from the message (stable), then captures it with
// a key drawn in the attempt (a fresh random value). The delivery runs in
// one transaction that locks the payment row, so concurrent deliveries and
// kills around the commit are harmless; only a crash after the capture was
// executed and before the commit makes the redelivery capture again, under
// a new key. Kills around the first effect request never see it.
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"
)

type message struct {
	MessageID string          `json:"message_id"`
	Payment   json.RawMessage `json:"payment"`
}

func main() {
	ctx := context.Background()
	var msg message
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil || msg.MessageID == "" {
		fail(1, "bad message: %v", err)
	}
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `insert into payments (message_id) values ($1) on conflict do nothing`, msg.MessageID); err != nil {
		fail(75, "database: %v", err)
	}
	var status string
	if err := tx.QueryRow(ctx, `select status from payments where message_id = $1 for update`, msg.MessageID).Scan(&status); err != nil {
		fail(75, "database: %v", err)
	}
	if status == "done" {
		return
	}
	hold := post("/v1/holds", "hold-"+stableKey(msg), msg.Payment)
	// The bug: this key is drawn per attempt.
	capture := post("/v1/captures", "capture-"+randomKey(), msg.Payment)
	if _, err := tx.Exec(ctx, `update payments set status = 'done', hold_id = $2, capture_id = $3 where message_id = $1`,
		msg.MessageID, hold, capture); err != nil {
		fail(75, "database: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		fail(75, "database: %v", err)
	}
}

func stableKey(msg message) string {
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")))
	mac.Write([]byte(msg.MessageID))
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func post(path, key string, body []byte) string {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(75, "provider: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fail(75, "provider %s: %s", path, data)
	}
	var out struct{ ID string }
	_ = json.Unmarshal(data, &out)
	return out.ID
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "holdcapture: "+format+"\n", args...)
	os.Exit(code)
}
