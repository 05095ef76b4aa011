// Package keys holds the key helpers a payments team keeps next to its
// handlers: derivation from stable fields, a per-attempt nonce, and a
// provider client that sends the key it is given.
package keys

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"strings"

	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
)

// Derive returns an HMAC over the given parts, joined with a separator.
func Derive(parts ...string) string {
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEM_SECRET")))
	mac.Write([]byte("v1|" + strings.Join(parts, "|")))
	return hex.EncodeToString(mac.Sum(nil))
}

// NewAttemptKey draws a fresh key.
func NewAttemptKey() string {
	return "att_" + uuid.NewString()
}

// NewTraceLabel draws an ulid for tracing.
func NewTraceLabel() string {
	return ulid.Make().String()
}

// Provider talks to the payment provider over HTTP.
type Provider struct {
	BaseURL string
	HTTP    *http.Client
}

// Charge posts body with the given idempotency key.
func (p *Provider) Charge(ctx context.Context, key string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.BaseURL+"/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := p.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Trace posts body, tagging it with a request id for the provider's logs.
func (p *Provider) Trace(ctx context.Context, requestID string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.BaseURL+"/events", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Request-Id", requestID)
	resp, err := p.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
