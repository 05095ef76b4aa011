// Package invoice is a test stub of stripe-go's invoice.
package invoice

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.InvoiceParams) (*stripe.Invoice, error) { return nil, nil }
