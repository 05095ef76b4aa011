// Package route53 is a minimal stub for tests.
package route53

import "context"

type Client struct{}

type CreateHostedZoneInput struct {
	CallerReference *string
	Name            *string
}

type CreateHostedZoneOutput struct{}

func (c *Client) CreateHostedZone(ctx context.Context, params *CreateHostedZoneInput) (*CreateHostedZoneOutput, error) {
	return &CreateHostedZoneOutput{}, nil
}
