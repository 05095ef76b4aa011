// Command uuidkey is a broken payment handler: it draws its idempotency key
// inside the attempt (a fresh UUID), so when the provider's answer is lost
// and the queue redelivers, the second attempt charges again.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
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
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil {
		fail(1, "bad message: %v", err)
	}
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)

	var done bool
	if err := conn.QueryRow(ctx, `select exists (select 1 from payments where message_id = $1)`, msg.MessageID).Scan(&done); err != nil {
		fail(75, "database: %v", err)
	}
	if done {
		return
	}
	key := newUUID() // the bug: a new key every attempt
	chargeID := charge(key, msg.Payment)
	if _, err := conn.Exec(ctx, `insert into payments (message_id, idem_key, charge_id) values ($1, $2, $3) on conflict do nothing`,
		msg.MessageID, key, chargeID); err != nil {
		fail(75, "database: %v", err)
	}
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
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
	fmt.Fprintf(os.Stderr, "uuidkey: "+format+"\n", args...)
	os.Exit(code)
}
