// Package client is a test stub of stripe-go's client.API.
package client

import "github.com/stripe/stripe-go/v82/paymentintent"

type API struct {
	PaymentIntents *paymentintent.Client
}

func New(key string, backends any) *API { return &API{} }
