// Package fbsvc draws a key only when its caller hands in none: the
// callers, in another package, decide (fbuse).
package fbsvc

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

type Input struct {
	Cents          int64
	IdempotencyKey string
}

type Service struct{}

// Initiate charges under the caller's key, or a fresh one when it sent
// none.
func (s *Service) Initiate(ctx context.Context, in Input) error {
	if in.IdempotencyKey == "" {
		in.IdempotencyKey = uuid.NewString()
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Cents)}
	params.IdempotencyKey = stripe.String(in.IdempotencyKey)
	_, err := paymentintent.New(params)
	return err
}

// Charge is the same with the key as a parameter of its own.
func Charge(ctx context.Context, cents int64, key string) error {
	if key == "" {
		key = uuid.NewString()
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents)}
	params.IdempotencyKey = stripe.String(key)
	_, err := paymentintent.New(params)
	return err
}

// Refund tests the key once trimmed: empty but for spaces is empty.
func Refund(ctx context.Context, cents int64, idempotencyKey string) error {
	key := strings.TrimSpace(idempotencyKey)
	if key == "" {
		key = uuid.NewString()
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents)}
	params.IdempotencyKey = stripe.String(key)
	_, err := paymentintent.New(params)
	return err
}
