package corpussdk

import (
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/client"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

// Older stripe-go code keeps a *client.API.
type Legacy struct {
	sc *client.API
}

func (l *Legacy) Charge(o Order) error {
	_, err := l.sc.PaymentIntents.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(o.AmountCents), Confirm: stripe.Bool(true)}) // want `without an idempotency key`
	return err
}

func (l *Legacy) ChargeKeyed(o Order, key string) error {
	p := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.AmountCents)}
	p.Params.IdempotencyKey = stripe.String(key)
	_, err := l.sc.PaymentIntents.New(p)
	return err
}

// Params built by a constructor that never keys them.
func newIntentParams(o Order) *stripe.PaymentIntentParams {
	return &stripe.PaymentIntentParams{
		Amount:   stripe.Int64(o.AmountCents),
		Currency: stripe.String(o.Currency),
	}
}

func ChargeBuilt(o Order) error {
	params := newIntentParams(o)
	_, err := paymentintent.New(params) // want `without an idempotency key`
	return err
}

func ChargeBuiltKeyed(o Order, key string) error {
	params := newIntentParams(o)
	params.SetIdempotencyKey(key)
	_, err := paymentintent.New(params)
	return err
}

// A constructor that keys them itself.
func newKeyedParams(o Order, key string) *stripe.PaymentIntentParams {
	p := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.AmountCents)}
	p.SetIdempotencyKey(key)
	return p
}

func ChargeKeyedBuilt(o Order, key string) error {
	_, err := paymentintent.New(newKeyedParams(o, key))
	return err
}
