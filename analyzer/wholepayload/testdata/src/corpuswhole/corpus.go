// Package corpuswhole is an independent labelled corpus for IDEM004: whole
// structs or maps serialized into an idempotency key, and explicit field
// lists that are fine.
package corpuswhole

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"
)

type ChargeRequest struct {
	TenantID    string    `json:"tenant_id"`
	OrderID     string    `json:"order_id"`
	AmountCents int64     `json:"amount_cents"`
	Currency    string    `json:"currency"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// --- positives -------------------------------------------------------------

func IdempotencyKey(secret []byte, req ChargeRequest) (string, error) {
	b, err := json.Marshal(req) // want `whole`
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil)), nil
}

func KeyFromV(secret []byte, req *ChargeRequest) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%v", *req)
	return hex.EncodeToString(mac.Sum(nil))
}

func SetKeyHeader(r *http.Request, secret []byte, req ChargeRequest) {
	idemKey := fmt.Sprintf("%+v", req) // want `whole`
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(idemKey))
	r.Header.Set("Idempotency-Key", hex.EncodeToString(mac.Sum(nil)))
}

func WebhookKey(secret []byte, payload map[string]any) string {
	raw, _ := json.Marshal(payload)
	mac := hmac.New(sha256.New, secret)
	mac.Write(raw)
	return hex.EncodeToString(mac.Sum(nil))
}

func DeriveKey(secret []byte, req *ChargeRequest) string {
	mac := hmac.New(sha256.New, secret)
	json.NewEncoder(mac).Encode(req)
	return hex.EncodeToString(mac.Sum(nil))
}

// --- clean -----------------------------------------------------------------

type keyFields struct {
	V           int    `json:"v"`
	TenantID    string `json:"tenant_id"`
	OrderID     string `json:"order_id"`
	AmountCents int64  `json:"amount_cents"`
}

func StableKey(secret []byte, req ChargeRequest) string {
	b, _ := json.Marshal(keyFields{V: 1, TenantID: req.TenantID, OrderID: req.OrderID, AmountCents: req.AmountCents})
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

func MapFieldsKey(secret []byte, req ChargeRequest) string {
	b, _ := json.Marshal(map[string]any{
		"v":            1,
		"tenant_id":    req.TenantID,
		"order_id":     req.OrderID,
		"amount_cents": req.AmountCents,
	})
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

func SendCharge(client *http.Client, url string, secret []byte, req ChargeRequest) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	httpReq, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	httpReq.Header.Set("Idempotency-Key", StableKey(secret, req))
	_, err = client.Do(httpReq)
	return err
}

func FieldsKey(secret []byte, req ChargeRequest) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "v1|%s|%s|%d|%s", req.TenantID, req.OrderID, req.AmountCents, req.Currency)
	return hex.EncodeToString(mac.Sum(nil))
}

func ScalarVKey(secret []byte, orderID string, cents int64) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%v:%v", orderID, cents)
	return hex.EncodeToString(mac.Sum(nil))
}

func LogRequest(req ChargeRequest) {
	log.Printf("charge request: %+v", req)
}

func PayloadChecksum(req ChargeRequest) string {
	b, _ := json.Marshal(req)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Callers that make KeyFromV, WebhookKey and DeriveKey key derivations: a
// helper not named like a key is reported where its result becomes the key.

func SendWithV(r *http.Request, secret []byte, req *ChargeRequest) {
	r.Header.Set("Idempotency-Key", KeyFromV(secret, req)) // want `whole`
}

func ForwardWebhook(r *http.Request, secret []byte, payload map[string]any) {
	r.Header.Set("Idempotency-Key", WebhookKey(secret, payload)) // want `whole`
}

func SendEncoded(r *http.Request, secret []byte, req *ChargeRequest) {
	r.Header.Set("Idempotency-Key", DeriveKey(secret, req)) // want `whole`
}

// A key function serializing its parameter whole: reported once, inside.
func idempotencyKeyOf(secret []byte, req ChargeRequest) string {
	b, _ := json.Marshal(req) // want `whole`
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

func Submit(r *http.Request, secret []byte, req ChargeRequest) {
	r.Header.Set("Idempotency-Key", idempotencyKeyOf(secret, req))
}
