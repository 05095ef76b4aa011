// Package payout is a test stub of stripe-go's payout.
package payout

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.PayoutParams) (*stripe.Payout, error) { return nil, nil }
