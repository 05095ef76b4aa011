// Package wa is a WhatsApp Cloud API webhook consumer that charges through
// AWS and HTTP providers, with generic helpers and methods on the charge.
package wa

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

type Message struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	Timestamp string `json:"timestamp"`
	Text      struct {
		Body string `json:"body"`
	} `json:"text"`
}

type Webhook struct {
	Entry []struct {
		Changes []struct {
			Value struct {
				Messages []Message `json:"messages"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

type Charge struct {
	OrderID string
	Amount  int64
	Nonce   string
	At      time.Time
}

// KeyStore is implemented elsewhere (unknown here).
type KeyStore interface {
	Key(ctx context.Context, orderID string) (string, error)
}

func ptr[T any](v T) *T { return &v }

func newReq(ctx context.Context) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://psp.example/charges", nil)
	return req
}

func (c *Charge) stamp() {
	c.Nonce = uuid.NewString()
	c.At = time.Now()
}

// W01 (reported): the WhatsApp message id from the webhook.
func HandleWebhook(w http.ResponseWriter, r *http.Request) {
	var hook Webhook
	if err := json.NewDecoder(r.Body).Decode(&hook); err != nil {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	for _, e := range hook.Entry {
		for _, ch := range e.Changes {
			for _, m := range ch.Value.Messages {
				req := newReq(r.Context())
				req.Header.Set("Idempotency-Key", "wa_"+m.ID) // want "idempotency key"
				http.DefaultClient.Do(req)
			}
		}
	}
}

// W02 (silent): the sender and the order from the text, not the id.
func HandleWebhookStable(w http.ResponseWriter, r *http.Request) {
	var hook Webhook
	if err := json.NewDecoder(r.Body).Decode(&hook); err != nil {
		return
	}
	m := hook.Entry[0].Changes[0].Value.Messages[0]
	req := newReq(r.Context())
	req.Header.Set("Idempotency-Key", m.From+":"+m.Text.Body)
	http.DefaultClient.Do(req)
}

// W03 (reported): a generic pointer helper around a fresh token.
func Launch(ctx context.Context, c *ec2.Client) error {
	_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ClientToken: ptr(uuid.NewString())}) // want "idempotency key"
	return err
}

// W04 (silent): the same helper around a stored token.
func LaunchStored(ctx context.Context, c *ec2.Client, conn *pgx.Conn, orderID string) error {
	var token string
	if err := conn.QueryRow(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&token); err != nil {
		return err
	}
	_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ClientToken: ptr(token)})
	return err
}

// W05 (silent): a key from an interface implemented elsewhere.
func ChargeFromStore(ctx context.Context, ks KeyStore, orderID string) error {
	key, err := ks.Key(ctx, orderID)
	if err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", key)
	_, err = http.DefaultClient.Do(req)
	return err
}

// W06 (reported) and W07 (silent): a method stamps two fields.
func ChargeStampedNonce(ctx context.Context, c Charge) error {
	c.stamp()
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", c.OrderID+c.Nonce) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}

func ChargeStampedOrder(ctx context.Context, c Charge) error {
	c.stamp()
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%d", c.OrderID, c.Amount))
	req.Header.Set("X-Sent-At", c.At.Format(time.RFC3339))
	_, err := http.DefaultClient.Do(req)
	return err
}

// W08 (reported): the whole charge, timestamp included, printed into the key.
func ChargePrinted(ctx context.Context, c Charge) error {
	c.At = time.Now()
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%v", c)) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}

// W09 (reported): a copy of the charge keeps the nonce.
func ChargeCopied(ctx context.Context, c Charge) error {
	c.Nonce = uuid.NewString()
	c2 := c
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", c2.Nonce) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}
