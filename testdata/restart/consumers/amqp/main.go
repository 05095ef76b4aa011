// Command amqp is a RabbitMQ consumer that charges a payment per message:
// the production shape of a handler, long-running, acking by hand. It reads
// AMQP_URL, AMQP_QUEUE, DATABASE_URL, PROVIDER_URL and IDEMPOTENCY_HMAC_KEY.
//
// With -key intent (the default) the idempotency key is derived from the
// business intent in the message (tenant, action, frozen payment), so every
// redelivery of the message, after any crash, asks for the same charge.
// With -key delivery the key is drawn per delivery, the common mistake: a
// redelivery after a crash charges again. With -key message-id the key is
// the AMQP message id, the transport's identity of the message, not the
// action's: the broker's redeliveries keep it, but the same payment published
// again (a producer's retry, a user pressing twice) comes with a new one.
//
//	amqp -key intent
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemcheck/idemcheck/derive"
)

type message struct {
	MessageID string          `json:"message_id"`
	Tenant    string          `json:"tenant"`
	Payment   json.RawMessage `json:"payment"`
}

func main() {
	keyMode := flag.String("key", "intent", "how the idempotency key is made: intent, delivery or message-id")
	think := flag.Duration("think", 0, "how long to work between recording the payment and charging it (a slow consumer)")
	flag.Parse()
	ctx := context.Background()
	db, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	conn, err := amqp.Dial(os.Getenv("AMQP_URL"))
	if err != nil {
		log.Fatal(err)
	}
	ch, err := conn.Channel()
	if err != nil {
		log.Fatal(err)
	}
	if err := ch.Qos(1, 0, false); err != nil {
		log.Fatal(err)
	}
	deliveries, err := ch.Consume(os.Getenv("AMQP_QUEUE"), "", false, false, false, false, nil)
	if err != nil {
		log.Fatal(err)
	}
	secret := []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY"))
	for d := range deliveries {
		var msg message
		if err := json.Unmarshal(d.Body, &msg); err != nil || msg.MessageID == "" {
			log.Printf("bad message: %v", err)
			_ = d.Reject(false) // never valid: dead-letter it
			continue
		}
		key := intentKey(secret, msg)
		switch *keyMode {
		case "delivery":
			key = perDeliveryKey()
		case "message-id":
			key = d.MessageId
		}
		switch err := pay(ctx, db, key, msg, *think); {
		case err == nil:
			_ = d.Ack(false)
		case db.IsClosed():
			// The connection is gone (a commit whose reply never came):
			// crash, and let the broker redeliver to the next process.
			log.Fatalf("database connection lost: %v", err)
		default:
			log.Printf("retry later: %v", err)
			time.Sleep(100 * time.Millisecond) // RabbitMQ requeues at once: back off here
			_ = d.Nack(false, true)
		}
	}
	log.Fatal("the broker closed the channel")
}

// intentKey is derived from what the message asks for, not from how it
// arrived: the same on every delivery.
func intentKey(secret []byte, msg message) string {
	// mutant:tenant-scope
	tenant := msg.Tenant
	// mutant> tenant := "" // the key leaves the tenant out: another tenant's same payment gets this one's key
	// mutant:end
	res, err := derive.DefaultSchema().Derive(secret, derive.Intent{Tenant: tenant, Action: "pix.cobranca", Payload: msg.Payment})
	if err != nil {
		log.Fatal(err)
	}
	return res.Key
}

// perDeliveryKey is the mistake: a fresh key for every delivery.
func perDeliveryKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// pay records the payment, charges it under key unless already done, and
// marks it done.
func pay(ctx context.Context, db *pgx.Conn, key string, msg message, think time.Duration) error {
	record := `insert into payments (idem_key, message_id, status) values ($1, $2, 'started')`
	// mutant:on-conflict
	record += ` on conflict (idem_key) do nothing`
	// mutant:end
	if _, err := db.Exec(ctx, record, key, msg.MessageID); err != nil {
		return err
	}
	var status string
	if err := db.QueryRow(ctx, `select status from payments where idem_key = $1`, key).Scan(&status); err != nil {
		return err
	}
	if status == "done" {
		return nil
	}
	time.Sleep(think)
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
	// mutant:provider-key
	req.Header.Set("Idempotency-Key", key)
	// mutant:end
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
