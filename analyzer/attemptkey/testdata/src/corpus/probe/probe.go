// Package probe holds variables named like transport identity: the name
// counts when the value comes from the caller, not when the function
// assigns it a stable value.
package probe

import (
	"context"
	"database/sql"
	"net/http"

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

// Q04 (reported): a handler called with the delivery's message id.
func HandleDelivery(ctx context.Context, messageID string, amount int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey("pay-" + messageID) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// Q05 (reported): the request id captured by a retry closure.
func HandleWithRetry(ctx context.Context, requestID string) error {
	var err error
	send := func() error {
		req := newReq(ctx)
		req.Header.Set("Idempotency-Key", requestID) // want "idempotency key"
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
