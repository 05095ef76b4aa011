// Package corpussdk is an independent labelled corpus for IDEM002: stripe-go
// write calls in the shapes real payment services use.
package corpussdk

import (
	"context"
	"fmt"
	"log"

	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"github.com/stripe/stripe-go/v82/refund"
)

type Order struct {
	ID          string
	TenantID    string
	AmountCents int64
	Currency    string
}

type Service struct {
	sc *stripe.Client
}

// --- positives -------------------------------------------------------------

func ChargeOrderLegacy(o Order) (string, error) {
	params := &stripe.PaymentIntentParams{
		Amount:   stripe.Int64(o.AmountCents),
		Currency: stripe.String(o.Currency),
		Confirm:  stripe.Bool(true),
	}
	params.AddMetadata("order_id", o.ID)
	pi, err := paymentintent.New(params) // want `without an idempotency key`
	if err != nil {
		return "", fmt.Errorf("create payment intent: %w", err)
	}
	return pi.ID, nil
}

func (s *Service) ChargeOrder(ctx context.Context, o Order) (*stripe.PaymentIntent, error) {
	params := &stripe.PaymentIntentCreateParams{
		Amount:   stripe.Int64(o.AmountCents),
		Currency: stripe.String(o.Currency),
		Confirm:  stripe.Bool(true),
	}
	return s.sc.V1PaymentIntents.Create(ctx, params) // want `without an idempotency key`
}

func RefundOrder(piID string, cents int64) error {
	_, err := refund.New(&stripe.RefundParams{ // want `without an idempotency key`
		PaymentIntent: stripe.String(piID),
		Amount:        stripe.Int64(cents),
	})
	return err
}

func (s *Service) CaptureAfterShipping(ctx context.Context, piID string, cents int64) error {
	params := &stripe.PaymentIntentCaptureParams{AmountToCapture: stripe.Int64(cents)}
	if _, err := s.sc.V1PaymentIntents.Capture(ctx, piID, params); err != nil { // captured at most once by Stripe
		log.Printf("capture %s failed: %v", piID, err)
		return err
	}
	return nil
}

func CaptureCharge(chargeID string) error {
	_, err := charge.Capture(chargeID, &stripe.ChargeParams{}) // captured at most once by Stripe
	return err
}

func createIntent(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) { // want createIntent:"unkeyed stripe params"
	return paymentintent.New(params)
}

func CheckoutWithoutKey(o Order) error {
	_, err := createIntent(&stripe.PaymentIntentParams{Amount: stripe.Int64(o.AmountCents)}) // want `without an idempotency key`
	return err
}

// --- clean -----------------------------------------------------------------

func ChargeOrderWithKey(o Order, key string) (string, error) {
	params := &stripe.PaymentIntentParams{
		Amount:   stripe.Int64(o.AmountCents),
		Currency: stripe.String(o.Currency),
	}
	params.SetIdempotencyKey(key)
	pi, err := paymentintent.New(params)
	if err != nil {
		return "", err
	}
	return pi.ID, nil
}

func (s *Service) ChargeOrderKeyInLiteral(ctx context.Context, o Order, key string) (*stripe.PaymentIntent, error) {
	return s.sc.V1PaymentIntents.Create(ctx, &stripe.PaymentIntentCreateParams{
		Params:   stripe.Params{IdempotencyKey: stripe.String(key)},
		Amount:   stripe.Int64(o.AmountCents),
		Currency: stripe.String(o.Currency),
	})
}

func RefundWithKeyField(piID, key string) error {
	params := &stripe.RefundParams{PaymentIntent: stripe.String(piID)}
	params.IdempotencyKey = stripe.String(key)
	_, err := refund.New(params)
	return err
}

// confirmIntent leaves the key to its caller, which needs none: Stripe
// confirms an intent at most once.
func confirmIntent(id string, params *stripe.PaymentIntentConfirmParams) error {
	_, err := paymentintent.Confirm(id, params)
	return err
}

func ConfirmFromHandler(id, pm, key string) error {
	params := &stripe.PaymentIntentConfirmParams{PaymentMethod: stripe.String(pm)}
	params.SetIdempotencyKey("confirm:" + key)
	return confirmIntent(id, params)
}

func (s *Service) LookupIntent(ctx context.Context, id string) (*stripe.PaymentIntent, error) {
	return s.sc.V1PaymentIntents.Retrieve(ctx, id, nil)
}

func LookupIntentLegacy(id string) (*stripe.PaymentIntent, error) {
	return paymentintent.Get(id, &stripe.PaymentIntentParams{})
}

func withKey(p *stripe.Params, key string) { p.SetIdempotencyKey(key) }

func (s *Service) CaptureWithHelperKey(ctx context.Context, piID, key string) error {
	params := &stripe.PaymentIntentCaptureParams{}
	withKey(&params.Params, "capture:"+key)
	_, err := s.sc.V1PaymentIntents.Capture(ctx, piID, params)
	return err
}
