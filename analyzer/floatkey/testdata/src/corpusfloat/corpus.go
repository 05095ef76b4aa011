// Package corpusfloat is an independent labelled corpus for IDEM003: floats
// reaching idempotency-key derivation, and floats that stay out of keys.
package corpusfloat

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log"
	"math"
	"net/http"
	"strconv"
)

type Payment struct {
	OrderID  string
	TenantID string
	Amount   float64
	Currency string
}

type Charge struct {
	OrderID     string
	AmountCents int64
	Display     float64
}

// --- positives -------------------------------------------------------------

func IdempotencyKey(secret []byte, orderID string, amount float64) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "v1|%s|%.2f", orderID, amount) // want `float`
	return hex.EncodeToString(mac.Sum(nil))
}

func PaymentKey(secret []byte, p Payment) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(p.TenantID + "|" + p.OrderID + "|" + strconv.FormatFloat(p.Amount, 'f', 2, 64)))
	return hex.EncodeToString(mac.Sum(nil))
}

func SetChargeHeader(req *http.Request, p Payment) {
	key := fmt.Sprintf("%s-%v", p.OrderID, p.Amount) // want `float`
	req.Header.Set("Idempotency-Key", key)
}

func DeriveKey(secret []byte, orderID string, total float64) []byte {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(orderID))
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], math.Float64bits(total))
	mac.Write(buf[:])
	return mac.Sum(nil)
}

func FXKey(secret []byte, orderID string, rate float32) string {
	idemKey := orderID + ":" + strconv.FormatFloat(float64(rate), 'f', -1, 32) // want `float`
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(idemKey))
	return hex.EncodeToString(mac.Sum(nil))
}

// --- clean -----------------------------------------------------------------

func ChargeKey(secret []byte, c Charge) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "v1|%s|%d", c.OrderID, c.AmountCents)
	return hex.EncodeToString(mac.Sum(nil))
}

func ChargeWithLog(secret []byte, c Charge, req *http.Request) {
	log.Printf("charging order %s amount %.2f", c.OrderID, c.Display)
	req.Header.Set("Idempotency-Key", ChargeKey(secret, c))
}

func Receipt(c Charge) string {
	return fmt.Sprintf("Order %s: R$ %.2f", c.OrderID, c.Display)
}

func KeyFromDecimalString(secret []byte, orderID, amount string) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(orderID + "|" + amount))
	return hex.EncodeToString(mac.Sum(nil))
}

func PriceETag(price float64) string {
	sum := sha256.Sum256([]byte(strconv.FormatFloat(price, 'f', -1, 64)))
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

func FeeReport(secret []byte, c Charge, feeRate float64) (string, float64) {
	fee := float64(c.AmountCents) * feeRate / 100
	return ChargeKey(secret, c), fee
}

// Callers that make PaymentKey and DeriveKey key derivations: a helper not
// named like a key is reported where its result becomes the key.

func ChargeHeaders(req *http.Request, secret []byte, p Payment) {
	req.Header.Set("Idempotency-Key", PaymentKey(secret, p)) // want `float`
}

func RefundHeaders(req *http.Request, secret []byte, orderID string, total float64) {
	req.Header.Set("Idempotency-Key", hex.EncodeToString(DeriveKey(secret, orderID, total))) // want `float`
}

func SendFX(req *http.Request, secret []byte, orderID string, rate float32) {
	req.Header.Set("Idempotency-Key", FXKey(secret, orderID, rate))
}

// A key function taking the float: reported once, inside, not again at
// every caller that passes a float.
func idempotencyKeyFor(secret []byte, orderID string, amount float64) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%s|%v", orderID, amount) // want `float`
	return hex.EncodeToString(mac.Sum(nil))
}

func Pay(req *http.Request, secret []byte, p Payment) {
	req.Header.Set("Idempotency-Key", idempotencyKeyFor(secret, p.OrderID, p.Amount))
}
