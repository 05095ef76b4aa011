package corpusdigest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
)

// Clean: the digest covers a secret read from the environment.
func SecretPrefixedKey(req *http.Request, o Order) {
	secretKey := os.Getenv("IDEMPOTENCY_SECRET")
	sum := sha256.Sum256([]byte(secretKey + "|" + o.TenantID + "|" + o.ID))
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}

// Positive: sha512/256 of the order id in a key variable.
func OrderKey(o Order) string {
	sum := sha256.Sum224([]byte(o.ID)) // want `digest`
	idempotencyKey := hex.EncodeToString(sum[:])
	return idempotencyKey
}
