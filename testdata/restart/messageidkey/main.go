// Command messageidkey is a payment handler that survives every crash and
// redelivery, because a redelivery carries the same bytes: its key is an
// HMAC of the transport's message id. When the publisher re-sends the same
// payment (its own retry, a user pressing again, a replayed webhook), the
// message id is new, so is the key, and the customer is charged twice.
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
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
	Tenant    string          `json:"tenant"`
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

	// The bug: the transport's identity, not the payment's.
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")))
	mac.Write([]byte(msg.Tenant + "\x00" + msg.MessageID))
	key := hex.EncodeToString(mac.Sum(nil))

	if _, err := conn.Exec(ctx, `insert into payments (message_id, idem_key) values ($1, $2) on conflict do nothing`, msg.MessageID, key); err != nil {
		fail(75, "database: %v", err)
	}
	var status string
	if err := conn.QueryRow(ctx, `select status from payments where message_id = $1`, msg.MessageID).Scan(&status); err != nil {
		fail(75, "database: %v", err)
	}
	if status == "done" {
		return
	}
	chargeID := charge(key, msg.Payment)
	if _, err := conn.Exec(ctx, `update payments set status = 'done', charge_id = $2 where message_id = $1`, msg.MessageID, chargeID); err != nil {
		fail(75, "database: %v", err)
	}
}

func charge(key string, body []byte) string {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(75, "provider: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fail(75, "provider: %s: %s", resp.Status, data)
	}
	var out struct{ ID string }
	_ = json.Unmarshal(data, &out)
	return out.ID
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "messageidkey: "+format+"\n", args...)
	os.Exit(code)
}
