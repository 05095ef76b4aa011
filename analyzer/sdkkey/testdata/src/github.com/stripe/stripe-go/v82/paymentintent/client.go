// Package paymentintent is a test stub of stripe-go's paymentintent.
package paymentintent

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) { return nil, nil }
func Get(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}
func Confirm(id string, params *stripe.PaymentIntentConfirmParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}
func Cancel(id string, params *stripe.PaymentIntentCancelParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}

func Update(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}

type Client struct{ Key string }

func (c Client) New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}

func Capture(id string, params *stripe.PaymentIntentCaptureParams) (*stripe.PaymentIntent, error) {
	return nil, nil
}
