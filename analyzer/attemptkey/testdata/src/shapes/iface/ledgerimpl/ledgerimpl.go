// Package ledgerimpl implements the ledger the service talks to through
// an interface: it sends the key it is given to the provider.
package ledgerimpl

import "context"

type Request struct {
	Amount         int64
	IdempotencyKey *string
}

type Client struct{}

func (c *Client) do(ctx context.Context, r Request) error { return nil }

// TransferFromPot moves money; ik becomes the request's idempotency key.
func (c *Client) TransferFromPot(ctx context.Context, ik string, cents int64) error { // want TransferFromPot:"summary"
	return c.do(ctx, Request{Amount: cents, IdempotencyKey: &ik})
}

// Note logs a note; its text is no key.
func (c *Client) Note(ctx context.Context, text string) error { return nil }

// Audit writes an audit line; the label is no key.
type Audit struct{}

func (Audit) TransferFromPot(ctx context.Context, label string, cents int64) error { return nil }
