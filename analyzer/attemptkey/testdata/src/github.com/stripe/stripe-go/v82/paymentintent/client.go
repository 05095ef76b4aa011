// Package paymentintent is a minimal stub for tests.
package paymentintent

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	return &stripe.PaymentIntent{}, nil
}
