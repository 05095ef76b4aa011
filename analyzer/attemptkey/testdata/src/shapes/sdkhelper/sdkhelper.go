// Package sdkhelper: a payments SDK in which one shared helper draws a
// fresh key into the request options, and every API method hands the
// options to the function that sets the header and sends the request.
// The mistake is in the helper, so it is reported once, where the fresh
// value becomes the key, with the calls that send it as related
// information.
package sdkhelper

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

type RequestOptions struct {
	IdempotencyKey string
	Headers        map[string]string
}

type Client struct {
	http    *http.Client
	baseURL string
	secret  string
}

func genID() string {
	return strings.ReplaceAll(uuid.NewString(), "-", "")
}

// defaults is the shared helper every API method calls.
func (c *Client) defaults(o *RequestOptions) {
	o.Headers = map[string]string{"Authorization": "Bearer " + c.secret}
	o.IdempotencyKey = genID() // want `built from uuid\.NewString .*, sent by 7 calls \(e\.g\. Client\.CreatePayment\);`
}

func (c *Client) call(ctx context.Context, method, path string, body, out any, o *RequestOptions) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	for k, v := range o.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Idempotence-Key", o.IdempotencyKey)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

type Payment struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

type Refund struct {
	ID        string `json:"id"`
	PaymentID string `json:"payment_id"`
}

type Payout struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

func (c *Client) CreatePayment(ctx context.Context, p Payment) (*Payment, error) {
	var o RequestOptions
	c.defaults(&o)
	var out Payment
	return &out, c.call(ctx, http.MethodPost, "/payments", p, &out, &o)
}

func (c *Client) CapturePayment(ctx context.Context, id string) (*Payment, error) {
	var o RequestOptions
	c.defaults(&o)
	var out Payment
	return &out, c.call(ctx, http.MethodPost, "/payments/"+id+"/capture", nil, &out, &o)
}

func (c *Client) CancelPayment(ctx context.Context, id string) (*Payment, error) {
	var o RequestOptions
	c.defaults(&o)
	var out Payment
	return &out, c.call(ctx, http.MethodPost, "/payments/"+id+"/cancel", nil, &out, &o)
}

func (c *Client) CreateRefund(ctx context.Context, r Refund) (*Refund, error) {
	var o RequestOptions
	c.defaults(&o)
	var out Refund
	return &out, c.call(ctx, http.MethodPost, "/refunds", r, &out, &o)
}

func (c *Client) CreatePayout(ctx context.Context, p Payout) (*Payout, error) {
	o := &RequestOptions{}
	c.defaults(o)
	var out Payout
	return &out, c.call(ctx, http.MethodPost, "/payouts", p, &out, o)
}

// Two requests in one method: both calls count.
func (c *Client) PayAndCapture(ctx context.Context, p Payment) error {
	var o RequestOptions
	c.defaults(&o)
	var out Payment
	if err := c.call(ctx, http.MethodPost, "/payments", p, &out, &o); err != nil {
		return err
	}
	return c.call(ctx, http.MethodPost, "/payments/"+out.ID+"/capture", nil, &out, &o)
}

// Silent: the same client, with the caller's stable key.

func (c *Client) CreatePaymentWithKey(ctx context.Context, p Payment, orderID string) (*Payment, error) {
	o := RequestOptions{IdempotencyKey: "payment-" + orderID}
	var out Payment
	return &out, c.call(ctx, http.MethodPost, "/payments", p, &out, &o)
}
