// Package edge holds the corpus cases most likely to trip a taint
// analyzer: strong updates through Scan, field-sensitive results, time
// values that do not come from the clock, and local retry counters.
package edge

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"

	"corpus/keys"
	"corpus/relay"
)

const idemHeader = "Idempotency-Key"

type Order struct {
	ID     string
	Amount int64
}

type charge struct {
	Key    string
	Amount int64
}

type config struct {
	KeyPrefix string
	Region    string
}

func loadConfig() config {
	return config{KeyPrefix: os.Getenv("KEY_PREFIX"), Region: os.Getenv("REGION")}
}

func send(req *http.Request) { http.DefaultClient.Do(req) }

func newReq(ctx context.Context) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://psp.example/charges", nil)
	return req
}

// E01 (silent): the generated key is overwritten by the stored one.
func ChargeReturning(ctx context.Context, conn *pgx.Conn, o Order) error {
	key := uuid.NewString()
	err := conn.QueryRow(ctx, `insert into intents(order_id, idem_key) values ($1, $2)
		on conflict (order_id) do update set order_id = excluded.order_id returning idem_key`, o.ID, key).Scan(&key)
	if err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", key)
	send(req)
	return nil
}

// E02 (reported): a header name held in a constant.
func ChargeConstHeader(ctx context.Context, o Order) {
	req := newReq(ctx)
	req.Header.Set(idemHeader, o.ID+"-"+uuid.NewString()) // want "idempotency key"
	send(req)
}

// E03 (reported): an http.Header literal.
func ChargeHeaderLiteral(ctx context.Context, o Order) {
	req := newReq(ctx)
	req.Header = http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {strconv.FormatInt(time.Now().UnixMicro(), 10)}} // want "idempotency key"
	send(req)
}

// E04 (reported): a local retry counter in the key.
func ChargeLoopCounter(ctx context.Context, o Order) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req := newReq(ctx)
		req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", o.ID, attempt)) // want "idempotency key"
		if _, err = http.DefaultClient.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// E05 (reported): the redelivered flag in the key.
func ConsumeFlag(d amqp.Delivery) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(fmt.Sprintf("%s-%t", d.Body, d.Redelivered)) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// E06 (reported) and E07 (silent): a constructor returning a struct with one fresh field.
func newCharge(o Order) charge {
	return charge{Key: uuid.NewString(), Amount: o.Amount}
}

func ChargeConstructed(ctx context.Context, o Order) {
	c := newCharge(o)
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", c.Key) // want "idempotency key"
	send(req)
}

func ChargeConstructedAmount(ctx context.Context, o Order) {
	c := newCharge(o)
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", o.ID+"/"+strconv.FormatInt(c.Amount, 10))
	send(req)
}

// E08 (reported): a generator held in a variable.
func ChargeFuncValue(ctx context.Context, o Order) {
	gen := uuid.NewString
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", gen()) // want "idempotency key"
	send(req)
}

// E09 (reported): two packages between the handler and the sink.
func ChargeRelayed(ctx context.Context, p *keys.Provider, o Order) error {
	return relay.Relay(ctx, p, "acme", time.Now().Format(time.RFC3339Nano), nil) // want "idempotency key"
}

// E10 (silent): two packages, a stable key.
func ChargeRelayedStable(ctx context.Context, p *keys.Provider, o Order) error {
	return relay.Relay(ctx, p, "acme", keys.Derive(o.ID), nil)
}

// E11 (silent): a created_at read back from the database, formatted into the key.
func ChargeStoredTime(ctx context.Context, db *sql.DB, orderID string) error {
	var createdAt time.Time
	var unix int64
	if err := db.QueryRowContext(ctx, `select created_at, extract(epoch from created_at)::bigint from intents where order_id = $1`, orderID).Scan(&createdAt, &unix); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(orderID + "@" + createdAt.UTC().Truncate(time.Second).Format(time.RFC3339) + "/" + time.Unix(unix, 0).UTC().Format("20060102"))
	_, err := paymentintent.New(params)
	return err
}

// E12 (silent): a timestamp parsed from the intent payload.
func ChargeParsedTime(ctx context.Context, raw []byte) error {
	var in struct {
		OrderID string `json:"order_id"`
		Placed  string `json:"placed_at"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return err
	}
	placed, err := time.Parse(time.RFC3339, in.Placed)
	if err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", in.OrderID+"-"+placed.Format("20060102"))
	send(req)
	return nil
}

// E13 (silent): random jitter in the backoff only.
func ChargeJitter(ctx context.Context, o Order) {
	for i := 0; i < 3; i++ {
		req := newReq(ctx)
		req.Header.Set("Idempotency-Key", "order-"+o.ID)
		if resp, err := http.DefaultClient.Do(req); err == nil && resp.StatusCode < 500 {
			return
		}
		time.Sleep(time.Duration(100+rand.Intn(400)) * time.Millisecond)
	}
}

// E14 (silent): a prefix from configuration loaded into a struct.
func ChargeConfigured(ctx context.Context, o Order) {
	cfg := loadConfig()
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", cfg.KeyPrefix+o.ID)
	req.Header.Set("X-Region", cfg.Region)
	send(req)
}

// E15 (silent): a correlation id header, an xid-free stable key.
func ChargeCorrelated(ctx context.Context, o Order) {
	req := newReq(ctx)
	req.Header.Set("X-Correlation-Id", uuid.NewString())
	req.Header.Set("Idempotency-Key", "o-"+o.ID)
	send(req)
}

// E16 (reported): a fresh key when the read-back finds nothing, used
// without being stored.
func ChargeFallback(ctx context.Context, db *sql.DB, o Order) error {
	var key string
	if err := db.QueryRowContext(ctx, `select idem_key from intents where order_id = $1`, o.ID).Scan(&key); err == sql.ErrNoRows {
		key = uuid.NewString()
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", key) // want "idempotency key"
	send(req)
	return nil
}

// E17 (silent): the read-back key in a loop of orders, each overwriting the
// previous iteration's candidate.
func ChargeBatch(ctx context.Context, conn *pgx.Conn, orders []Order) error {
	for _, o := range orders {
		key := uuid.NewString()
		if err := conn.QueryRow(ctx, `insert into intents(order_id, idem_key) values ($1, $2)
			on conflict (order_id) do update set order_id = excluded.order_id returning idem_key`, o.ID, key).Scan(&key); err != nil {
			return err
		}
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
		params.SetIdempotencyKey(key)
		if _, err := paymentintent.New(params); err != nil {
			return err
		}
	}
	return nil
}
