// Package probe holds variables named like transport identity: the name
// counts when the value comes from the caller, not when the function
// assigns it a stable value.
package probe

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

func newReq(ctx context.Context) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://psp.example/charges", nil)
	return req
}

// Q01 (silent): a stable key that the team calls a request id.
func ChargeRequestIDNamed(ctx context.Context, db *sql.DB, orderID string) error {
	var requestID string
	if err := db.QueryRowContext(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&requestID); err != nil {
		return err
	}
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", requestID)
	_, err := http.DefaultClient.Do(req)
	return err
}

// Q02 (silent): a deterministic key in a variable named for the trace.
func ChargeTraceNamed(orderID string, amount int64) error {
	traceID := "ord-" + orderID
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(traceID)
	_, err := paymentintent.New(params)
	return err
}

// Q03 (silent): a message id the service itself derives from the order.
func ChargeMessageIDNamed(orderID string) error {
	messageID := "msg-" + orderID
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(messageID)
	_, err := paymentintent.New(params)
	return err
}

// Q04 (silent): a parameter named messageID, no caller in view. A name is
// no provenance: its callers decide, where they pass the delivery's id
// (ConsumeDelivery below) or a stable one.
func HandleDelivery(ctx context.Context, messageID string, amount int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey("pay-" + messageID)
	_, err := paymentintent.New(params)
	return err
}

// Q05 (silent): a parameter named requestID captured by a retry closure
// that reuses it: the name says nothing of where its value comes from.
func HandleWithRetry(ctx context.Context, requestID string) error {
	var err error
	send := func() error {
		req := newReq(ctx)
		req.Header.Set("Idempotency-Key", requestID)
		_, err := http.DefaultClient.Do(req)
		return err
	}
	for i := 0; i < 3; i++ {
		if err = send(); err == nil {
			return nil
		}
	}
	return err
}

type intentRow struct {
	OrderID   string
	RequestID string
	Amount    int64
}

// Q06 (silent): a request id frozen in the intent row and read back.
func ChargeStoredRequestID(ctx context.Context, db *sql.DB, orderID string) error {
	var in intentRow
	if err := db.QueryRowContext(ctx, `select order_id, request_id, amount from intents where order_id = $1`, orderID).Scan(&in.OrderID, &in.RequestID, &in.Amount); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Amount)}
	params.SetIdempotencyKey(in.RequestID)
	_, err := paymentintent.New(params)
	return err
}

// Q07 (reported): the candidate is written, but the attempt uses its own
// candidate instead of reading back the one that won.
func ChargeWrittenNotReadBack(ctx context.Context, db *sql.DB, orderID string, amount int64) error {
	key := uuid.NewString()
	if _, err := db.ExecContext(ctx, `insert into intents(order_id, idem_key) values ($1, $2) on conflict do nothing`, orderID, key); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(key) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// Q08 (silent): a nullable key read back.
func ChargeNullable(ctx context.Context, db *sql.DB, orderID string) error {
	var k sql.NullString
	if err := db.QueryRowContext(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&k); err != nil || !k.Valid {
		return err
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(k.String)
	_, err := paymentintent.New(params)
	return err
}

// Q09 (silent): a key function that times itself.
func idempotencyKeyFor(orderID string, amount int64) string {
	start := time.Now()
	defer func() { log.Printf("key derived in %s", time.Since(start)) }()
	return fmt.Sprintf("v1:%s:%d", orderID, amount)
}

func ChargeTimedKey(orderID string, amount int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotencyKeyFor(orderID, amount))
	_, err := paymentintent.New(params)
	return err
}

// Q10 (reported): the elapsed time since the handler started.
func ChargeElapsed(ctx context.Context, orderID string, started time.Time) error {
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", orderID+"-"+strconv.FormatInt(int64(time.Since(started)/time.Hour), 10)) // want "idempotency key"
	_, err := http.DefaultClient.Do(req)
	return err
}

// Q11 (silent): an unexported helper whose parameter the team calls a
// request id, always called with a stable key.
func sendWithRequestID(ctx context.Context, requestID string) error {
	req := newReq(ctx)
	req.Header.Set("Idempotency-Key", requestID)
	_, err := http.DefaultClient.Do(req)
	return err
}

func ChargeThroughHelper(ctx context.Context, orderID string) error {
	return sendWithRequestID(ctx, "order-"+orderID)
}

// Q12 (reported): the same kind of helper called with the delivery's id.
func chargeForMessage(ctx context.Context, messageID string) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(messageID)
	_, err := paymentintent.New(params)
	return err
}

func ConsumeDelivery(ctx context.Context, d amqp.Delivery) error {
	return chargeForMessage(ctx, d.MessageId) // want "idempotency key"
}

// Q13 (silent): a handler registered as a value; its callers are unknown,
// and a parameter's name (msgID) is no provenance.
func payHandler(ctx context.Context, msgID string) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("wa:" + msgID)
	_, err := paymentintent.New(params)
	return err
}

var Handlers = map[string]func(context.Context, string) error{"pay": payHandler}
