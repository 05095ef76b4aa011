// Command checkthenact is a broken payment handler: it checks for an
// existing payment with a select and then inserts one, with no constraint
// behind the check. Its key comes from the payment row, so redeliveries one
// after another reuse it; two deliveries at once both pass the check,
// insert two rows, and charge twice under two keys.
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
	"time"

	"github.com/jackc/pgx/v5"
)

type message struct {
	MessageID string          `json:"message_id"`
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

	var id int64
	var status string
	err = conn.QueryRow(ctx, `select id, status from payments where message_id = $1 order by id limit 1`, msg.MessageID).Scan(&id, &status)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// The work between the check and the act (validation, a model
		// call) is the window another delivery slips through.
		time.Sleep(300 * time.Millisecond)
		if err := conn.QueryRow(ctx, `insert into payments (message_id, status) values ($1, 'started') returning id`, msg.MessageID).Scan(&id); err != nil {
			fail(75, "database: %v", err)
		}
	case err != nil:
		fail(75, "database: %v", err)
	case status == "done":
		return
	}
	chargeID := charge(fmt.Sprintf("payment-%d", id), msg.Payment)
	if _, err := conn.Exec(ctx, `update payments set status = 'done', charge_id = $2 where id = $1`, id, chargeID); err != nil {
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
	fmt.Fprintf(os.Stderr, "checkthenact: "+format+"\n", args...)
	os.Exit(code)
}
