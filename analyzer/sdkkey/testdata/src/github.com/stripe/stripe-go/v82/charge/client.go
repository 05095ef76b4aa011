// Package charge is a test stub of stripe-go's charge.
package charge

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.ChargeParams) (*stripe.Charge, error) { return nil, nil }
func Capture(id string, params *stripe.ChargeParams) (*stripe.Charge, error) {
	return nil, nil
}
