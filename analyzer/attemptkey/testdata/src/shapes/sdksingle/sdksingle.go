// Package sdksingle: a key with a single leave site is reported where it
// leaves, as before: there is nothing to collapse.
package sdksingle

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

type Options struct{ IdempotencyKey string }

type Client struct{ http *http.Client }

func (c *Client) defaults(o *Options) {
	o.IdempotencyKey = uuid.NewString() // want `built from uuid\.NewString`
}

func (c *Client) call(ctx context.Context, path string, o *Options) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://shop.example"+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", o.IdempotencyKey)
	_, err = c.http.Do(req)
	return err
}

// The helper's one caller: reported at the call that sends the key.
func (c *Client) CreateOrder(ctx context.Context) error {
	var o Options
	c.defaults(&o)
	return c.call(ctx, "/orders", &o) // want `built from uuid\.NewString`
}

type SubmitReq struct {
	Amount         int64
	IdempotencyKey string
}

type Provider interface {
	Submit(ctx context.Context, r SubmitReq) error
}

// Everything in one function: reported where the request leaves.
func Submit(ctx context.Context, p Provider, amount int64) error {
	k := uuid.NewString()
	return p.Submit(ctx, SubmitReq{Amount: amount, IdempotencyKey: k}) // want `built from uuid\.NewString`
}
