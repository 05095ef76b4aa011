// Package accountlink is a test stub of stripe-go's accountlink.
package accountlink

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.AccountLinkParams) (*stripe.AccountLink, error) { return nil, nil }
