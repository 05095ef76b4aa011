package sdkkey

import (
	"context"
	"encoding/json"

	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
	"github.com/stripe/stripe-go/v82/client"
	"github.com/stripe/stripe-go/v82/paymentintent"

	"payments"
)

type Intent struct {
	Key   string
	Cents int64
}

func noKey(cents int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents), Currency: stripe.String("brl"), Confirm: stripe.Bool(true)}
	params.AddMetadata("order", "1")
	_, err := paymentintent.New(params) // want `paymentintent.New is called without an idempotency key`
	return err
}

func inlineLiteral(cents int64) {
	charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}) // want `charge.New is called without an idempotency key`
}

// Capturing, confirming and paying act on an object that exists, and
// Stripe does each at most once per object: a repeat fails, charging
// nothing. So do cancelling, updating and deleting: none needs a key.
func captureConfirm(ctx context.Context, sc *stripe.Client, id string) {
	paymentintent.Capture(id, nil)
	paymentintent.Confirm(id, &stripe.PaymentIntentConfirmParams{PaymentMethod: stripe.String("pm_card")})
	sc.V1PaymentIntents.Capture(ctx, id, nil)
}

func cancelUpdateDelete(ctx context.Context, sc *stripe.Client, id string) {
	paymentintent.Cancel(id, nil)
	paymentintent.Update(id, &stripe.PaymentIntentParams{Amount: stripe.Int64(1)})
	sc.V1PaymentIntents.Update(ctx, id, &stripe.PaymentIntentUpdateParams{Description: stripe.String("x")})
	sc.V1Customers.Delete(ctx, id, nil)
}

func newClient(ctx context.Context, sc *stripe.Client, cents int64) {
	params := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(cents), Confirm: stripe.Bool(true)}
	sc.V1PaymentIntents.Create(ctx, params) // want `sc.V1PaymentIntents.Create is called without an idempotency key`
}

func oldClient(api *client.API) {
	var params stripe.PaymentIntentParams
	params.Amount = stripe.Int64(100)
	params.Confirm = stripe.Bool(true)
	api.PaymentIntents.New(&params) // want `api.PaymentIntents.New is called without an idempotency key`
}

// create leaves the key to its caller.
func create(id string, p *stripe.PaymentIntentParams) error { // want create:`unkeyed stripe params \[1\] -> paymentintent.New`
	p.AddMetadata("order", id)
	_, err := paymentintent.New(p)
	return err
}

func callerWithoutKey(id string) {
	p := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	create(id, p) // want `stripe params reach paymentintent.New through sdkkey.create without an idempotency key`
}

func crossPackage(in Intent) {
	payments.Refund(&stripe.RefundParams{Amount: stripe.Int64(in.Cents)}) // want `stripe params reach refund.New through payments.Refund`
}

// ---- negatives ----

func setKey(in Intent) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Cents)}
	params.SetIdempotencyKey(in.Key)
	paymentintent.New(params)
}

func fieldKey(in Intent) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Cents)}
	params.IdempotencyKey = stripe.String(in.Key)
	paymentintent.New(params)
}

func literalKey(in Intent) {
	charge.New(&stripe.ChargeParams{
		Params: stripe.Params{IdempotencyKey: stripe.String(in.Key)},
		Amount: stripe.Int64(in.Cents),
	})
}

func embeddedField(in Intent) {
	var params stripe.PaymentIntentParams
	params.Params.IdempotencyKey = stripe.String(in.Key)
	paymentintent.New(&params)
}

func callerWithKey(id string, in Intent) {
	p := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Cents)}
	p.SetIdempotencyKey(in.Key + ":create")
	create(id, p)
}

func crossPackageKeyed(in Intent) {
	p := &stripe.RefundParams{Amount: stripe.Int64(in.Cents)}
	p.SetIdempotencyKey(in.Key + ":refund")
	payments.Refund(p)
}

func reads(id string) {
	paymentintent.Get(id, nil)
}

func fromElsewhere(data []byte) {
	var params stripe.PaymentIntentParams
	json.Unmarshal(data, &params)
	paymentintent.New(&params)
}

func builtByHelper(in Intent) {
	paymentintent.New(keyedParams(in))
}

func keyedParams(in Intent) *stripe.PaymentIntentParams {
	p := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Cents)}
	p.SetIdempotencyKey(in.Key)
	return p
}

func paramKeyedHere(p *stripe.RefundParams, in Intent) {
	p.SetIdempotencyKey(in.Key)
	payments.Refund(p)
}

func suppressed(id string) {
	//idemcheck:ignore IDEM002 cancel is naturally idempotent at Stripe
	paymentintent.Cancel(id, nil)
}

// Silent: a PaymentIntent created without Confirm (or with Confirm false)
// charges nothing until the customer or one later confirm does: a repeat
// leaves a spare intent.
func openIntent(ctx context.Context, sc *stripe.Client, cents int64) {
	paymentintent.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(cents)})
	params := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(cents), Confirm: stripe.Bool(false)}
	sc.V1PaymentIntents.Create(ctx, params)
}

// Reported: confirmed at creation, it charges; a confirm set after the
// literal counts too.
func confirmedIntent(ctx context.Context, sc *stripe.Client, cents int64) {
	paymentintent.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(cents), Confirm: stripe.Bool(true)}) // want `paymentintent.New is called without an idempotency key`
	params := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(cents)}
	params.Confirm = stripe.Bool(true)
	sc.V1PaymentIntents.Create(ctx, params) // want `sc.V1PaymentIntents.Create is called without an idempotency key`
}
