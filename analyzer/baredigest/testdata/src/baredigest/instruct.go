package baredigest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
)

// Shape 6 of issue 18: an inbound fingerprint held in a struct field is
// still a fingerprint.

type inboundCall struct {
	req *http.Request
}

type paymentRequest struct {
	OrderID string
	Amount  string
}

type envelope struct {
	Request paymentRequest
}

type dedupRecord struct {
	IdempotencyKey string
	Source         string
}

type dedupStore interface {
	Seen(ctx context.Context, r dedupRecord) (bool, error)
	FindProcessed(ctx context.Context, key string) (bool, error)
}

// Silent: the request sits in a struct field.
func (h *webhooks) viaStruct(c inboundCall, s dedupStore) {
	body, _ := io.ReadAll(c.req.Body)
	sum := sha256.Sum256(body)
	idemKey := hex.EncodeToString(sum[:])
	s.FindProcessed(c.req.Context(), idemKey)
}

// Silent: a fingerprint over the inbound request's fields, the request
// decoded into a struct field.
func (h *webhooks) requestFields(r *http.Request, s dedupStore) {
	var env envelope
	if err := json.NewDecoder(r.Body).Decode(&env); err != nil {
		return
	}
	sum := sha256.Sum256([]byte(env.Request.OrderID + env.Request.Amount))
	rec := dedupRecord{IdempotencyKey: hex.EncodeToString(sum[:]), Source: "webhook"}
	s.Seen(r.Context(), rec)
}

// Silent: the fingerprint in a struct field, the struct looked up.
func (h *webhooks) recordLookup(c inboundCall, s dedupStore) {
	body, _ := io.ReadAll(c.req.Body)
	sum := sha256.Sum256(body)
	var rec dedupRecord
	rec.IdempotencyKey = hex.EncodeToString(sum[:])
	s.Seen(c.req.Context(), rec)
}

// Reported: the same fingerprint sent on as a provider's key.
func (h *webhooks) forwardFromStruct(c inboundCall, out *http.Request) {
	body, _ := io.ReadAll(c.req.Body)
	sum := sha256.Sum256(body) // want `idempotency key \(Idempotency-Key header\) is a bare sha256 digest`
	out.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}
