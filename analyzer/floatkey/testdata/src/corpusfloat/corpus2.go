package corpusfloat

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
)

type keyInput struct {
	OrderID string  `json:"order_id"`
	Cents   int64   `json:"cents"`
	Display float64 `json:"-"`
}

// Clean: rounded to integer cents before the key.
func RoundedKey(req *http.Request, orderID string, amount float64) {
	cents := int64(math.Round(amount * 100))
	req.Header.Set("Idempotency-Key", orderID+":"+strconv.FormatInt(cents, 10))
}

// Clean: the float only picks a constant tier.
func TierKey(req *http.Request, orderID string, amount float64) {
	tier := "standard"
	if amount > 1000 {
		tier = "high"
	}
	req.Header.Set("Idempotency-Key", orderID+":"+tier)
}

// Clean: the float field is left out of the encoding.
func TaggedOutKey(secret []byte, in keyInput) string {
	b, _ := json.Marshal(in)
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	idemKey := hex.EncodeToString(mac.Sum(nil))
	return idemKey
}

type floatInput struct {
	OrderID string  `json:"order_id"`
	Amount  float64 `json:"amount"`
}

// Positive: a key struct with a float field, serialized into the key.
func FloatFieldKey(secret []byte, orderID string, amount float64) string {
	b, _ := json.Marshal(floatInput{OrderID: orderID, Amount: amount}) // want `float`
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	idempotencyKey := hex.EncodeToString(mac.Sum(nil))
	return idempotencyKey
}

// Positive: float formatted by a helper the caller uses as the key.
func amountText(amount float64) string { return fmt.Sprintf("%.2f", amount) }

func HelperKey(req *http.Request, orderID string, amount float64) {
	req.Header.Set("Idempotency-Key", orderID+"|"+amountText(amount)) // want `float`
}
