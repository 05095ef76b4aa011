package baredigest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io"
	"net/http"
)

type WebhookEvent struct {
	WebhookIdempotencyKey string
	Payload               []byte
}

type eventStore interface {
	FindProcessed(ctx context.Context, key string) (bool, error)
	Save(ctx context.Context, e WebhookEvent) error
}

type webhooks struct {
	db    *sql.DB
	store eventStore
}

// The digest of the body we received, used to find the event already
// processed: a fingerprint, whatever its name.
func (h *webhooks) receive(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body)
	webhookIdempotencyKey := hex.EncodeToString(sum[:])
	var seen bool
	h.db.QueryRowContext(r.Context(), "SELECT true FROM webhook_events WHERE event_key = $1", webhookIdempotencyKey).Scan(&seen)
	if seen {
		return
	}
}

func (h *webhooks) receiveIntoField(w http.ResponseWriter, r *http.Request) {
	var evt WebhookEvent
	evt.Payload, _ = io.ReadAll(r.Body)
	sum := sha256.Sum256(evt.Payload)
	evt.WebhookIdempotencyKey = hex.EncodeToString(sum[:])
	if done, _ := h.store.FindProcessed(r.Context(), evt.WebhookIdempotencyKey); done {
		return
	}
	h.store.Save(r.Context(), evt)
}

// ---- look-alikes that are reported ----

// The inbound body's digest sent on to a provider as its key: anyone who
// has the body can compute it.
func (h *webhooks) forward(r *http.Request, out *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body) // want `idempotency key \(Idempotency-Key header\) is a bare sha256 digest`
	out.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}

// Looked up and also sent out: the lookup does not excuse the header.
func (h *webhooks) lookupAndForward(r *http.Request, out *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body) // want `idempotency key \(Idempotency-Key header\) is a bare sha256 digest`
	webhookKey := hex.EncodeToString(sum[:])
	h.store.FindProcessed(r.Context(), webhookKey)
	out.Header.Set("Idempotency-Key", webhookKey)
}

// A digest of our own order fields, looked up: not a fingerprint of
// anything received.
func (h *webhooks) orderLookup(ctx context.Context, o Order) {
	sum := sha256.Sum256([]byte(o.ID + o.Phone)) // want `idempotency key \(variable idemKey\) is a bare sha256 digest`
	idemKey := hex.EncodeToString(sum[:])
	h.db.QueryRowContext(ctx, "SELECT status FROM payment_intents WHERE idempotency_key = $1", idemKey)
}
