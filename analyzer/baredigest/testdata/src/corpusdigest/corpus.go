// Package corpusdigest is an independent labelled corpus for IDEM005: plain
// digests of guessable fields used as idempotency keys, and digests that are
// not keys or keys that carry a secret.
package corpusdigest

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"strconv"
)

type Order struct {
	TenantID    string
	ID          string
	CustomerID  string
	AmountCents int64
}

type Params struct{ IdempotencyKey *string }

func (p *Params) SetIdempotencyKey(k string) { p.IdempotencyKey = &k }

// --- positives -------------------------------------------------------------

func SetKey(p *Params, o Order) {
	sum := sha256.Sum256([]byte(o.TenantID + ":" + o.ID + ":" + o.CustomerID)) // want `digest`
	p.SetIdempotencyKey(hex.EncodeToString(sum[:]))
}

func IdempotencyKey(o Order) string {
	sum := md5.Sum([]byte(fmt.Sprintf("%s|%s|%d", o.TenantID, o.ID, o.AmountCents))) // want `digest`
	return hex.EncodeToString(sum[:])
}

func AddIdemHeader(req *http.Request, o Order) {
	h := sha1.New() // want `digest`
	io.WriteString(h, o.TenantID)
	io.WriteString(h, o.ID)
	req.Header.Set("Idempotency-Key", hex.EncodeToString(h.Sum(nil)))
}

// DedupKey is left unreported by design: a "dedup" key is read as an
// inbound-message fingerprint, not a key sent to a provider (doubtful for
// guessable identifier fields like these).
func DedupKey(o Order) string {
	h := fnv.New64a()
	h.Write([]byte(o.TenantID + o.ID))
	return strconv.FormatUint(h.Sum64(), 16)
}

func NewParams(o Order) *Params {
	h := sha256.New() // want `digest`
	fmt.Fprintf(h, "%s/%s/%d", o.TenantID, o.ID, o.AmountCents)
	key := hex.EncodeToString(h.Sum(nil))
	return &Params{IdempotencyKey: &key}
}

// --- clean -----------------------------------------------------------------

func HMACKey(secret []byte, o Order) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "v1|%s|%s|%d", o.TenantID, o.ID, o.AmountCents)
	return hex.EncodeToString(mac.Sum(nil))
}

func SetHMACKey(p *Params, secret []byte, o Order) {
	p.SetIdempotencyKey(HMACKey(secret, o))
}

func FileChecksum(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func Shard(o Order, shards uint32) uint32 {
	h := fnv.New32a()
	h.Write([]byte(o.TenantID))
	return h.Sum32() % shards
}

func ETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func VerifyWebhook(secret, body []byte, signature string) bool {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hmac.Equal(mac.Sum(nil), []byte(signature))
}

func PassThroughKey(p *Params, r *http.Request) {
	p.SetIdempotencyKey(r.Header.Get("Idempotency-Key"))
}

// The caller of a key function with a bare digest is not reported again.
func Checkout(p *Params, o Order) {
	p.SetIdempotencyKey(IdempotencyKey(o))
}
