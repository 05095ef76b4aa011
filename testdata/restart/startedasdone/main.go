// Command startedasdone is a broken payment handler: its key is stable, but
// it marks the payment 'started' before calling the provider and treats
// any existing row as done. Killed between the two, the redelivery finds
// the started row, acknowledges, and the payment is lost.
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
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil {
		fail(1, "bad message: %v", err)
	}
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)

	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")))
	mac.Write([]byte(msg.Tenant + "\x00" + msg.MessageID))
	key := hex.EncodeToString(mac.Sum(nil))

	tag, err := conn.Exec(ctx, `insert into payments (message_id, idem_key, status) values ($1, $2, 'started') on conflict do nothing`,
		msg.MessageID, key)
	if err != nil {
		fail(75, "database: %v", err)
	}
	if tag.RowsAffected() == 0 {
		return // the bug: a 'started' row is taken as done
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
	fmt.Fprintf(os.Stderr, "startedasdone: "+format+"\n", args...)
	os.Exit(code)
}
