// Package sdkheader: an SDK whose shared helper draws a fresh key and sets
// the header itself. The header is where the key is made, so the finding
// is there, once, however many API methods call the helper.
package sdkheader

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

type Client struct {
	http    *http.Client
	baseURL string
	secret  string
}

func genID() string {
	return strings.ReplaceAll(uuid.NewString(), "-", "")
}

func (c *Client) setHeaders(req *http.Request) {
	req.Header.Set("Authorization", "Bearer "+c.secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotence-Key", genID()) // want `built from uuid\.NewString`
}

func (c *Client) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	c.setHeaders(req)
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

func (c *Client) CreatePayment(ctx context.Context, p Payment) (*Payment, error) {
	var out Payment
	return &out, c.post(ctx, "/payments", p, &out)
}

func (c *Client) CapturePayment(ctx context.Context, id string) (*Payment, error) {
	var out Payment
	return &out, c.post(ctx, "/payments/"+id+"/capture", nil, &out)
}

func (c *Client) CancelPayment(ctx context.Context, id string) (*Payment, error) {
	var out Payment
	return &out, c.post(ctx, "/payments/"+id+"/cancel", nil, &out)
}

// Sends the request itself instead of through post.
func (c *Client) GetPayment(ctx context.Context, id string) (*Payment, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/payments/"+id, nil)
	if err != nil {
		return nil, err
	}
	c.setHeaders(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out Payment
	return &out, json.NewDecoder(resp.Body).Decode(&out)
}
