// Command claimthenkey is a broken payment handler with two back-to-back
// transactions: the first claims the message, the second stores the key to
// charge with. A redelivery that finds the claim without a key takes it for
// another worker's and acknowledges without charging. The charge is lost,
// but only when the crash falls between the two commits.
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

	var claimed bool
	var key string
	err = conn.QueryRow(ctx, `select exists (select 1 from claims where message_id = $1), coalesce((select key from keys where message_id = $1), '')`,
		msg.MessageID).Scan(&claimed, &key)
	if err != nil {
		fail(75, "database: %v", err)
	}
	switch {
	case claimed && key == "":
		return // the bug: "another worker has it"
	case key == "":
		mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")))
		mac.Write([]byte(msg.Tenant + "\x00" + msg.MessageID))
		key = hex.EncodeToString(mac.Sum(nil))
		inTx(ctx, conn, `insert into claims (message_id) values ($1) on conflict do nothing`, msg.MessageID)
		inTx(ctx, conn, `insert into keys (message_id, key) values ($1, $2) on conflict do nothing`, msg.MessageID, key)
	}
	charge(key, msg.Payment)
}

// inTx runs one statement in its own transaction (BEGIN … COMMIT).
func inTx(ctx context.Context, conn *pgx.Conn, sql string, args ...any) {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, sql, args...)
		return err
	})
	if err != nil {
		fail(75, "database: %v", err)
	}
}

func charge(key string, body []byte) {
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
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "claimthenkey: "+format+"\n", args...)
	os.Exit(code)
}
