// Package session is a test stub of stripe-go's checkout/session.
package session

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.CheckoutSessionParams) (*stripe.CheckoutSession, error) { return nil, nil }
