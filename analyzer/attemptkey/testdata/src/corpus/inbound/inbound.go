// Package inbound is the consumer side: messages deduplicated on arrival,
// intents persisted with a candidate key and read back.
package inbound

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"time"

	"cloud.google.com/go/pubsub"
	"github.com/anthropics/anthropic-sdk-go"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/segmentio/ksuid"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"

	"corpus/extract"
)

// PubSubMessage is the client library's message: the service sets
// DeliveryAttempt on every delivery.
type PubSubMessage = pubsub.Message

type Settings struct {
	MaxAttempts int
	KeyPrefix   string
}

func newReq(ctx context.Context) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://psp.example/charges", nil)
	return req
}

// I01 (silent): inbound dedup keyed by the message id.
func MarkSeen(ctx context.Context, conn *pgx.Conn, messageID string) (bool, error) {
	tag, err := conn.Exec(ctx, `insert into inbound_dedup(message_id, seen_at) values ($1, $2) on conflict do nothing`, messageID, time.Now())
	_ = tag
	return err == nil, err
}

// I02 (silent): a candidate key persisted with the intent and read back.
func ChargePersisted(ctx context.Context, conn *pgx.Conn, orderID string, amount int64) error {
	idemKey := uuid.NewString()
	if _, err := conn.Exec(ctx, `insert into intents(order_id, idem_key, amount) values ($1, $2, $3) on conflict do nothing`, orderID, idemKey, amount); err != nil {
		return err
	}
	var stored string
	if err := conn.QueryRow(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&stored); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(stored)
	_, err := paymentintent.New(params)
	return err
}

// I03 (reported): the model's reading through a helper package.
func ChargeExtracted(ctx context.Context, c anthropic.Client, text string) error {
	f, err := extract.Extract(ctx, c, text)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(f.Amount)}
	params.SetIdempotencyKey("ref:" + f.OrderRef) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}

// I04 (silent): the model's amount, the key from the stored intent.
func ChargeExtractedStored(ctx context.Context, c anthropic.Client, conn *pgx.Conn, orderID, text string) error {
	f, err := extract.Extract(ctx, c, text)
	if err != nil {
		return err
	}
	var key string
	if err := conn.QueryRow(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&key); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(f.Amount)}
	params.SetIdempotencyKey(key)
	_, err = paymentintent.New(params)
	return err
}

// I05 (reported): a key through a pointer to a local.
func ChargePointer(ctx context.Context, amount int64) error {
	k := ksuid.New().String()
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.IdempotencyKey = &k // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// I06 (reported): the caller's request id, not its idempotency key.
func ProxyWithRequestID(w http.ResponseWriter, r *http.Request) {
	req := newReq(r.Context())
	req.Header.Set("Idempotency-Key", r.Header.Get("X-Request-Id")) // want "idempotency key"
	http.DefaultClient.Do(req)
}

// I07 (silent): the caller's request id only echoed.
func ProxyEcho(w http.ResponseWriter, r *http.Request) {
	req := newReq(r.Context())
	req.Header.Set("X-Request-Id", r.Header.Get("X-Request-Id"))
	req.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key"))
	w.Header().Set("X-Request-Id", r.Header.Get("X-Request-Id"))
	http.DefaultClient.Do(req)
}

// I08 (reported): Pub/Sub's delivery attempt.
func HandlePush(ctx context.Context, m PubSubMessage) error {
	n := 0
	if m.DeliveryAttempt != nil {
		n = *m.DeliveryAttempt
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(fmt.Sprintf("%s#%d", m.Data, n)) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// I09 (silent): attempt limits from settings bound the loop.
func ChargeBounded(ctx context.Context, s Settings, orderID string) error {
	var err error
	for i := 0; i < s.MaxAttempts; i++ {
		req := newReq(ctx)
		req.Header.Set("Idempotency-Key", s.KeyPrefix+orderID)
		req.Header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
		if _, err = http.DefaultClient.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// I10 (reported): crypto/rand.Int.
func ChargeBigRandom(ctx context.Context) error {
	n, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", n.String()) // want "idempotency key"
	_, err = http.DefaultClient.Do(req)
	return err
}

// I11 (reported): a uuid parked in an any-map and asserted back.
func ChargeFromMeta(ctx context.Context) error {
	meta := map[string]any{"nonce": uuid.New()}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", meta["nonce"].(uuid.UUID).String()) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}

// I12 (silent): the secret from a file, the data stable.
func ChargeFileSecret(ctx context.Context, orderID string) error {
	secret, err := os.ReadFile("/run/secrets/idem")
	if err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%x", append(secret, orderID...)))
	_, err = http.DefaultClient.Do(req)
	return err
}

// I13 (reported): the clock rounded to the hour.
func ChargeHourly(ctx context.Context, orderID string) error {
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%v", orderID, time.Now().Round(time.Hour).Unix())) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}

// I14 (silent): the inbound dedup key is the transport's message id, and
// it goes only to the inbound table.
func Seen(ctx context.Context, conn *pgx.Conn, m PubSubMessage) (bool, error) {
	dedupKey := m.ID
	tag, err := conn.Exec(ctx, `insert into inbound_dedup(dedup_key) values ($1) on conflict do nothing`, dedupKey)
	_ = tag
	return err == nil, err
}

// I15 (silent): the same with a WhatsApp message id.
func SeenWA(ctx context.Context, conn *pgx.Conn, wamid string, body struct {
	MessageID string `json:"message_id"`
}) (bool, error) {
	dedupKey := body.MessageID
	_, err := conn.Exec(ctx, `insert into inbound_dedup(dedup_key) values ($1) on conflict do nothing`, dedupKey)
	return err == nil, err
}
