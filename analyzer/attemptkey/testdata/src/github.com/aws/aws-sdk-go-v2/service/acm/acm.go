// Package acm is a minimal stub for tests.
package acm

import "context"

type Client struct{}

type RequestCertificateInput struct {
	DomainName       *string
	IdempotencyToken *string
}

type RequestCertificateOutput struct{}

func (c *Client) RequestCertificate(ctx context.Context, params *RequestCertificateInput) (*RequestCertificateOutput, error) {
	return &RequestCertificateOutput{}, nil
}
