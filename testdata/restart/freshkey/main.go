// Command freshkey is a broken payment handler that looks careful: it
// checks for a 'done' row first and acknowledges when it finds one, so a
// redelivery after it finished charges nothing. But its key is drawn in the
// attempt, and nothing stops two deliveries that both passed the check:
// each charges under its own key.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
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
	var status string
	err = conn.QueryRow(ctx, `select status from payments where message_id = $1`, msg.MessageID).Scan(&status)
	switch {
	case err == nil && status == "done":
		return
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		fail(75, "database: %v", err)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	chargeID := charge(hex.EncodeToString(b), msg.Payment)
	if _, err := conn.Exec(ctx, `insert into payments (message_id, status, charge_id) values ($1, 'done', $2) on conflict do nothing`,
		msg.MessageID, chargeID); err != nil {
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
	fmt.Fprintf(os.Stderr, "freshkey: "+format+"\n", args...)
	os.Exit(code)
}
