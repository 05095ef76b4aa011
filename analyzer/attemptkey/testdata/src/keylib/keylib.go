// Package keylib has helpers whose behaviour crosses packages as facts.
package keylib

import (
	"net/http"
	"strings"

	"github.com/google/uuid"
)

// NewNonce returns a per-attempt value.
func NewNonce() string { return strings.ReplaceAll(uuid.NewString(), "-", "") }

// Join passes its parameters to its result.
func Join(parts ...string) string { return strings.Join(parts, ":") }

// SetKey puts its parameter in the Idempotency-Key header.
func SetKey(req *http.Request, k string) {
	req.Header.Set("Idempotency-Key", k)
}

// Stable ignores its second parameter.
func Stable(orderID, nonce string) string { return "order:" + orderID }

type Keyed struct {
	Order string
	Nonce string
}

// Fill writes a per-attempt value into one field of its out-parameter.
func Fill(k *Keyed, order string) {
	k.Order = order
	k.Nonce = NewNonce()
}
