// Package retryshared: a key drawn once before a retry loop holds for
// the loop's retries. It is a finding only where the whole call can run
// again for the same intent: code a broker delivery, a queued job or a
// webhook reaches. From an HTTP route or a command line, nothing the
// process can see repeats it.
package retryshared

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/google/uuid"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stripe/stripe-go/v82/webhook"

	"provenance/retrylib"
)

type Client struct{}

func (c *Client) Charge(ctx context.Context, idempotencyKey string, cents int64) error { return nil }

type Order struct {
	ID    string
	Cents int64
}

// Silent: an HTTP route retries its own call with one key.
func ChargeRoute(c *Client, w http.ResponseWriter, r *http.Request) {
	key := uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		err = c.Charge(r.Context(), key, 100)
		if err == nil {
			break
		}
	}
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
	}
}

// Found: the same loop in a queue consumer; a redelivery draws a new key.
func ChargeConsumer(c *Client, d amqp.Delivery) error {
	key := uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		err = c.Charge(context.Background(), key, 100) // want `built from uuid\.NewString`
		if err == nil {
			break
		}
	}
	return err
}

// Found: drawn inside the loop, every retry sends a new key, wherever.
func ChargeRouteEachTry(c *Client, w http.ResponseWriter, r *http.Request) {
	for i := 0; i < 3; i++ {
		if err := c.Charge(r.Context(), uuid.NewString(), 100); err == nil { // want `built from uuid\.NewString`
			return
		}
	}
}

// chargeRetrying draws the key once and retries; whether that holds
// depends on who calls it.
func chargeRetrying(ctx context.Context, c *Client, o Order) error {
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.Charge(ctx, key, o.Cents); err == nil { // want `built from uuid\.NewString`
			return nil
		}
	}
	return err
}

// Reaches chargeRetrying from a delivery: the finding above.
func consume(c *Client, d amqp.Delivery) error {
	var o Order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	return chargeRetrying(context.Background(), c, o)
}

// chargeRetryingToo is chargeRetrying reached only from a route.
func chargeRetryingToo(ctx context.Context, c *Client, o Order) error {
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.Charge(ctx, key, o.Cents); err == nil {
			return nil
		}
	}
	return err
}

// Silent: chargeRetryingToo is reached from this route only.
func OrderRoute(c *Client, w http.ResponseWriter, r *http.Request) {
	var o Order
	_ = json.NewDecoder(r.Body).Decode(&o)
	_ = chargeRetryingToo(r.Context(), c, o)
}

// Found: a route that checks a webhook's signature receives a webhook,
// which the sender retries until it is acknowledged.
func WebhookRoute(c *Client, w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if _, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), "whsec"); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	key := uuid.NewString()
	for i := 0; i < 3; i++ {
		if err := c.Charge(r.Context(), key, 100); err == nil { // want `built from uuid\.NewString`
			return
		}
	}
}

// Silent: a retry helper's closure shares the key drawn outside it.
func ClosureRoute(c *Client, w http.ResponseWriter, r *http.Request) {
	key := uuid.NewString()
	_ = retry(3, func() error { return c.Charge(r.Context(), key, 100) })
}

// Found: the same closure in a consumer.
func ClosureConsumer(c *Client, d amqp.Delivery) error {
	key := uuid.NewString()
	return retry(3, func() error { return c.Charge(context.Background(), key, 100) }) // want `built from uuid\.NewString`
}

func retry(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// Found at the call: a consumer reaches retrylib.ChargeOnce, whose key
// is drawn once per call.
func ConsumeViaLib(c *retrylib.Client, d amqp.Delivery) error {
	return retrylib.ChargeOnce(context.Background(), c, 100) // want `built from uuid\.NewString`
}

// Silent: a route reaches it.
func RouteViaLib(c *retrylib.Client, w http.ResponseWriter, r *http.Request) {
	_ = retrylib.ChargeOnce(r.Context(), c, 100)
}

// ChargeTwice passes the decision on to its own callers.
func ChargeTwice(ctx context.Context, c *retrylib.Client) error {
	return retrylib.ChargeOnce(ctx, c, 200)
}
