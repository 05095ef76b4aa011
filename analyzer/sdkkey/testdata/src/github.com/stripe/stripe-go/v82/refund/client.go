// Package refund is a test stub of stripe-go's refund.
package refund

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.RefundParams) (*stripe.Refund, error) { return nil, nil }
