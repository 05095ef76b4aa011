// Package reached: IDEM002 on a path that can be redelivered or retried
// (issue 18). A keyless charge repeats when its call runs again: a
// redelivered message, a retry loop, or callers out of view that may do
// either. Where only an HTTP route or a command line reaches it, nothing
// repeats the call and stripe-go's own key holds for its own retries.
package reached

import (
	"encoding/json"
	"net/http"

	amqp "github.com/rabbitmq/amqp091-go"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

type Order struct{ Cents int64 }

// Found: a queue consumer; a redelivery charges again.
func Consume(d amqp.Delivery) error {
	var o Order
	_ = json.Unmarshal(d.Body, &o)
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(o.Cents)}) // want `charge.New is called without an idempotency key`
	return err
}

// Silent: the same call in an HTTP route.
func Route(w http.ResponseWriter, r *http.Request) {
	var o Order
	_ = json.NewDecoder(r.Body).Decode(&o)
	if _, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(o.Cents)}); err != nil {
		w.WriteHeader(http.StatusBadGateway)
	}
}

// Found: a route that retries the call until it succeeds; every retry
// draws a new key.
func RetryingRoute(w http.ResponseWriter, r *http.Request) {
	for i := 0; i < 3; i++ {
		if _, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(100)}); err == nil { // want `charge.New is called without an idempotency key`
			return
		}
	}
}

// chargeOrder is reached from the consumer below and from the route.
func chargeOrder(o Order) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(o.Cents)}) // want `charge.New is called without an idempotency key`
	return err
}

func consumeOrder(d amqp.Delivery) error {
	var o Order
	_ = json.Unmarshal(d.Body, &o)
	return chargeOrder(o)
}

func OrderRoute(w http.ResponseWriter, r *http.Request) {
	_ = chargeOrder(Order{Cents: 100})
}

// chargeFromRoute is reached from the route only: silent.
func chargeFromRoute(o Order) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(o.Cents)})
	return err
}

func PayRoute(w http.ResponseWriter, r *http.Request) {
	_ = chargeFromRoute(Order{Cents: 100})
}

// Found: an exported function: its callers are out of view.
func ChargeOrder(o Order) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(o.Cents)}) // want `charge.New is called without an idempotency key`
	return err
}
