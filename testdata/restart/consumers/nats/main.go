// Command nats is a NATS JetStream consumer that charges a payment per message:
// the production shape of a handler, long-running, acking by hand. It reads
// NATS_URL, NATS_STREAM, NATS_CONSUMER, DATABASE_URL, PROVIDER_URL and
// IDEMPOTENCY_HMAC_KEY.
//
// With -key intent (the default) the idempotency key is derived from the
// business intent in the message (tenant, action, frozen payment), so every
// redelivery of the message, after any crash, asks for the same charge.
// With -key delivery-count the key is the message id plus the delivery
// count JetStream reports, the common mistake: a redelivery after a crash
// has another count, so another key, so another charge.
//
// With -push it consumes a push consumer (restart-test --nats-push). With
// -batch N a pull holds up to N messages at once: one consumer then takes
// every copy of a concurrent round, and no race is run.
//
//	nats -key intent
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/idemcheck/idemcheck/derive"
)

type message struct {
	MessageID string          `json:"message_id"`
	Tenant    string          `json:"tenant"`
	Payment   json.RawMessage `json:"payment"`
}

func main() {
	keyMode := flag.String("key", "intent", "how the idempotency key is made: intent or delivery-count")
	push := flag.Bool("push", false, "NATS_CONSUMER is a push consumer (delivering to NATS_DELIVER_SUBJECT in its queue group)")
	batch := flag.Int("batch", 1, "messages a pull may hold unacknowledged at once (nats.go's default is 500)")
	flag.Parse()
	ctx := context.Background()
	db, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	nc, err := nats.Connect(os.Getenv("NATS_URL"))
	if err != nil {
		log.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	secret := []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY"))
	// One message at a time: the callback runs sequentially.
	handle := func(m jetstream.Msg) {
		var msg message
		if err := json.Unmarshal(m.Data(), &msg); err != nil || msg.MessageID == "" {
			log.Printf("bad message: %v", err)
			_ = m.Term() // never valid: do not redeliver
			return
		}
		key := intentKey(secret, msg)
		if *keyMode == "delivery-count" {
			md, _ := m.Metadata()
			key = fmt.Sprintf("%s-%d", msg.MessageID, md.NumDelivered)
		}
		if err := pay(ctx, db, key, msg); err != nil {
			if db.IsClosed() {
				// The connection is gone (a commit whose reply never
				// came): crash, and let JetStream redeliver.
				log.Fatalf("database connection lost: %v", err)
			}
			log.Printf("retry later: %v", err)
			_ = m.NakWithDelay(100 * time.Millisecond)
			return
		}
		_ = m.DoubleAck(ctx) // acked only once the server confirms it
	}
	stream, name := os.Getenv("NATS_STREAM"), os.Getenv("NATS_CONSUMER")
	if *push {
		c, err := js.PushConsumer(ctx, stream, name)
		if err == nil {
			_, err = c.Consume(handle)
		}
		if err != nil {
			log.Fatal(err)
		}
	} else {
		c, err := js.Consumer(ctx, stream, name)
		if err == nil {
			_, err = c.Consume(handle, jetstream.PullMaxMessages(*batch))
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	select {}
}

// intentKey is derived from what the message asks for, not from how it
// arrived: the same on every delivery.
func intentKey(secret []byte, msg message) string {
	res, err := derive.DefaultSchema().Derive(secret, derive.Intent{Tenant: msg.Tenant, Action: "pix.cobranca", Payload: msg.Payment})
	if err != nil {
		log.Fatal(err)
	}
	return res.Key
}

// pay records the payment, charges it under key unless already done, and
// marks it done.
func pay(ctx context.Context, db *pgx.Conn, key string, msg message) error {
	if _, err := db.Exec(ctx, `insert into payments (idem_key, message_id, status) values ($1, $2, 'started') on conflict (idem_key) do nothing`,
		key, msg.MessageID); err != nil {
		return err
	}
	var status string
	if err := db.QueryRow(ctx, `select status from payments where idem_key = $1`, key).Scan(&status); err != nil {
		return err
	}
	if status == "done" {
		return nil
	}
	chargeID, err := charge(key, msg.Payment)
	if err != nil {
		return err
	}
	_, err = db.Exec(ctx, `update payments set status = 'done', charge_id = $2, updated_at = now() where idem_key = $1`, key, chargeID)
	return err
}

func charge(key string, payment []byte) (string, error) {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader(payment))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("provider answered %d: %s", resp.StatusCode, body)
	}
	var out struct{ ID string }
	_ = json.Unmarshal(body, &out)
	return out.ID, nil
}
