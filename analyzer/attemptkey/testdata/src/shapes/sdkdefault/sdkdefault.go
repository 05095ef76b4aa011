// Package sdkdefault: an SDK whose request builder lets the caller pass
// its own key and draws a fresh one only when the caller left it empty.
// The default is the mistake: reported once, where it is drawn, however
// many API methods send through the builder.
package sdkdefault

import (
	"context"
	"encoding/hex"
	"math/rand"
	"net/http"
)

type Params struct {
	IdempotencyKey string
	Metadata       map[string]string
}

type Client struct {
	http    *http.Client
	baseURL string
}

func newKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// prepare is the shared request builder.
func (c *Client) prepare(p *Params) {
	if p.IdempotencyKey == "" {
		p.IdempotencyKey = newKey() // want `built from rand\.Read .*, sent by 4 calls \(e\.g\. Client\.CreateCharge\);`
	}
}

func (c *Client) send(ctx context.Context, path string, p *Params) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", p.IdempotencyKey)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateCharge(ctx context.Context, p *Params) error {
	c.prepare(p)
	return c.send(ctx, "/charges", p)
}

func (c *Client) CaptureCharge(ctx context.Context, id string, p *Params) error {
	c.prepare(p)
	return c.send(ctx, "/charges/"+id+"/capture", p)
}

func (c *Client) RefundCharge(ctx context.Context, id string, p *Params) error {
	c.prepare(p)
	return c.send(ctx, "/charges/"+id+"/refund", p)
}

func (c *Client) CreateTransfer(ctx context.Context, to string, p *Params) error {
	c.prepare(p)
	return c.send(ctx, "/transfers?to="+to, p)
}

// Silent: the caller's own key, the default never drawn.

func Checkout(ctx context.Context, c *Client, orderID string) error {
	return c.send(ctx, "/charges", &Params{IdempotencyKey: "checkout-" + orderID})
}
