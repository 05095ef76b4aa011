// Package webhookendpoint is a test stub of stripe-go's webhookendpoint.
package webhookendpoint

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.WebhookEndpointParams) (*stripe.WebhookEndpoint, error) { return nil, nil }
