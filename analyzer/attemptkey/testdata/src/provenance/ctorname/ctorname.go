// Package ctorname: shape 3 of issue 18. A function's name does not make
// its result a key: only the field the name matcher picks is.
package ctorname

import (
	"context"

	"github.com/google/uuid"
)

type Header struct {
	ID             string
	IdempotencyKey string
}

type Client struct{}

func (c *Client) Send(ctx context.Context, h Header, body []byte) error { return nil }

// Silent: the random value is the ID field; the key is the caller's k.
func NewHeaderWithIdempotencyKey(k string) Header {
	return Header{ID: uuid.NewString(), IdempotencyKey: k}
}

func send(ctx context.Context, c *Client, orderID string) error {
	return c.Send(ctx, NewHeaderWithIdempotencyKey("order-"+orderID), nil)
}

// Found: the same constructor given a fresh key, at the call that sends it.
func sendFresh(ctx context.Context, c *Client) error {
	return c.Send(ctx, NewHeaderWithIdempotencyKey(uuid.NewString()), nil) // want `built from uuid\.NewString`
}
