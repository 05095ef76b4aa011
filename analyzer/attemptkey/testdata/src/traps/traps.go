// want package:"analyzed"
// Package traps holds code that must stay silent.
package traps

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

type Intent struct {
	TenantID  string
	OrderID   string
	Cents     int64
	CreatedAt time.Time
	Attempt   int
}

func deriveKey(secret []byte, i Intent) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(i.TenantID + "\x00" + i.OrderID))
	return hex.EncodeToString(mac.Sum(nil))
}

// A stable key computed once outside the retry closure and reused.
func retryWithStableKey(ctx context.Context, i Intent, do func(func(attempt int) error) error) error {
	i.CreatedAt = time.Now()
	key := deriveKey([]byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")), i)
	return do(func(attempt int) error {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(i.Cents)}
		params.IdempotencyKey = stripe.String(key)
		params.Metadata = map[string]string{"attempt": string(rune('0' + attempt))}
		_, err := paymentintent.New(params)
		return err
	})
}

// A uuid persisted in the intent row and read back with Scan.
func persistedAndReadBack(ctx context.Context, conn *pgx.Conn, orderID string, cents int64) error {
	idemKey := uuid.NewString()
	if _, err := conn.Exec(ctx, `insert into intents (order_id, idem_key) values ($1, $2) on conflict do nothing`, orderID, idemKey); err != nil {
		return err
	}
	var stored string
	if err := conn.QueryRow(ctx, `select idem_key from intents where order_id = $1`, orderID).Scan(&stored); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents)}
	params.IdempotencyKey = stripe.String(stored)
	_, err := paymentintent.New(params)
	return err
}

// A uuid used only for the X-Request-Id header.
func requestIDOnly(req *http.Request, key string) {
	req.Header.Set("X-Request-Id", uuid.NewString())
	req.Header.Set("Idempotency-Key", key)
}

// time.Now used for timestamps, not for the key.
func timestamps(ctx context.Context, conn *pgx.Conn, i Intent, secret []byte) (string, error) {
	i.CreatedAt = time.Now()
	deadline := time.Now().Add(5 * time.Second)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if _, err := conn.Exec(ctx, `insert into intents (tenant_id, order_id, created_at) values ($1, $2, $3) on conflict do nothing`, i.TenantID, i.OrderID, i.CreatedAt); err != nil {
		return "", err
	}
	return deriveKey(secret, i), nil
}

// The incoming request's own Idempotency-Key is stable across the
// client's retries.
func incomingHeader(r *http.Request, out *http.Request) {
	out.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key"))
}

// Configuration is stable.
func fromEnv(out *http.Request) {
	out.Header.Set("Idempotency-Key", os.Getenv("FIXED_KEY"))
}

// Collected with pgx.CollectOneRow.
func collected(ctx context.Context, conn *pgx.Conn, orderID string) (string, error) {
	rows, err := conn.Query(ctx, `select idem_key from intents where order_id = $1 and created_at > $2`, orderID, time.Now().Add(-time.Hour))
	if err != nil {
		return "", err
	}
	idempotencyKey, err := pgx.CollectOneRow(rows, pgx.RowTo[string])
	return idempotencyKey, err
}

// A random value that never reaches a key.
func traceOnly(req *http.Request, orderID string) {
	req.Header.Set("Traceparent", uuid.NewString())
	req.Header.Set("Idempotency-Key", "order-"+orderID)
}

// Field sensitivity: the sibling CreatedAt does not taint OrderID.
func fieldSensitive(req *http.Request, i Intent) {
	i.CreatedAt = time.Now()
	i.Attempt++
	req.Header.Set("Idempotency-Key", i.TenantID+":"+i.OrderID)
}

type APIResponse struct {
	IdempotencyKey string
	RequestID      string
	RawJSON        []byte
}

type APIResource struct {
	LastResponse *APIResponse
}

type Page struct {
	APIResource
	Data []string
}

func query() (*Page, error) { return &Page{}, nil }

// Copying a response's own key next to its request id: the request id
// does not leak into the sibling field, however deep the path.
func copyLastResponse(page *Page) []*APIResponse {
	lr := page.LastResponse
	var out []*APIResponse
	for range page.Data {
		out = append(out, &APIResponse{IdempotencyKey: lr.IdempotencyKey, RequestID: lr.RequestID, RawJSON: lr.RawJSON})
	}
	return out
}

func getPage() []*APIResponse {
	page, err := query()
	if err != nil {
		return nil
	}
	return copyLastResponse(page)
}
