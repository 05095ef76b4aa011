// Package sdkpercall: every API method draws a fresh key itself (through a
// shared generator) and passes it to the function that sets the header.
// The generator returns a plain value; it becomes the key at each call,
// so each call is its own mistake and is reported.
package sdkpercall

import (
	"context"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

type Client struct{ http *http.Client }

func genID() string {
	return strings.ReplaceAll(uuid.NewString(), "-", "")
}

func (c *Client) do(ctx context.Context, path, idempotencyKey string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example"+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", idempotencyKey)
	_, err = c.http.Do(req)
	return err
}

func (c *Client) CreatePayment(ctx context.Context) error {
	return c.do(ctx, "/payments", genID()) // want `built from uuid\.NewString`
}

func (c *Client) CreateRefund(ctx context.Context) error {
	return c.do(ctx, "/refunds", genID()) // want `built from uuid\.NewString`
}

func (c *Client) CreatePayout(ctx context.Context) error {
	return c.do(ctx, "/payouts", genID()) // want `built from uuid\.NewString`
}

// Silent: the caller's order id makes the key.
func (c *Client) Capture(ctx context.Context, orderID string) error {
	return c.do(ctx, "/captures", "capture-"+orderID)
}
