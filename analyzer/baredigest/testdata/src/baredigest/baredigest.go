package baredigest

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
	"os"
	"strconv"
)

type Order struct {
	ID    string
	Phone string
	Cents int64
}

func sumKey(o Order, req *http.Request) {
	sum := sha256.Sum256([]byte(o.ID + ":" + o.Phone)) // want `idempotency key \(Idempotency-Key header\) is a bare sha256 digest with no secret`
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}

func streamingKey(o Order) string {
	h := sha1.New() // want `is a bare sha1 digest`
	io.WriteString(h, o.ID)
	h.Write([]byte(strconv.FormatInt(o.Cents, 10)))
	idemKey := hex.EncodeToString(h.Sum(nil))
	return idemKey
}

func idempotencyKeyFor(o Order) string {
	return fmt.Sprintf("%x", md5.Sum([]byte(o.ID))) // want `bare md5 digest`
}

func fnvKey(o Order) string {
	h := fnv.New64a() // want `bare fnv digest`
	h.Write([]byte(o.ID))
	idemKey := strconv.FormatUint(h.Sum64(), 16)
	return idemKey
}

// An inbound-deduplication fingerprint is not a key sent to a provider.
func inboundFingerprint(body []byte) string {
	sum := sha256.Sum256(body)
	dedupKey := hex.EncodeToString(sum[:])
	return dedupKey
}

type Params struct{ IdempotencyKey *string }

func inParams(o Order) *Params {
	sum := sha256.Sum256([]byte(o.Phone)) // want `bare sha256 digest`
	k := hex.EncodeToString(sum[:])
	return &Params{IdempotencyKey: &k}
}

// ---- negatives ----

var hmacSecret = []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY"))

func hmacKey(o Order, req *http.Request) {
	mac := hmac.New(sha256.New, hmacSecret)
	mac.Write([]byte(o.ID))
	req.Header.Set("Idempotency-Key", hex.EncodeToString(mac.Sum(nil)))
}

func hmacOverDigest(o Order) string {
	sum := sha256.Sum256([]byte(o.ID))
	mac := hmac.New(sha256.New, hmacSecret)
	mac.Write(sum[:])
	idemKey := hex.EncodeToString(mac.Sum(nil))
	return idemKey
}

func checksum(body []byte, w http.ResponseWriter) {
	sum := sha256.Sum256(body)
	w.Header().Set("ETag", hex.EncodeToString(sum[:]))
	w.Header().Set("X-Content-SHA256", fmt.Sprintf("%x", sum))
}

func contentAddress(body []byte) string {
	sum := sha256.Sum256(body)
	cacheKey := hex.EncodeToString(sum[:])
	return cacheKey
}

func separateChecksum(o Order, body []byte, req *http.Request) {
	sum := md5.Sum(body)
	req.Header.Set("Content-MD5", hex.EncodeToString(sum[:]))
	req.Header.Set("Idempotency-Key", "order:"+o.ID)
}

// lookupKey is not named like an idempotency key: a generic cache key.
func lookupKey(o Order) string {
	return fmt.Sprintf("%x", md5.Sum([]byte(o.ID)))
}

func secretPrefixed(o Order) string {
	secret := os.Getenv("KEY_SECRET")
	sum := sha256.Sum256([]byte(secret + o.ID))
	idemKey := hex.EncodeToString(sum[:])
	return idemKey
}

func suppressed(o Order) string {
	//idemcheck:ignore IDEM005 the provider requires a sha1 of the order id
	sum := sha1.Sum([]byte(o.ID))
	idemKey := hex.EncodeToString(sum[:])
	return idemKey
}

// hashFields is a bare digest helper: its callers' keys are bare digests.
func hashFields(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// signFields is a keyed helper.
func signFields(parts ...string) string {
	mac := hmac.New(sha256.New, hmacSecret)
	for _, p := range parts {
		mac.Write([]byte(p))
	}
	return hex.EncodeToString(mac.Sum(nil))
}

func viaDigestHelper(o Order, req *http.Request) {
	key := hashFields(o.ID, o.Phone) // want `is a bare sha256 digest \(computed in hashFields\)`
	req.Header.Set("Idempotency-Key", key)
}

func viaKeyedHelper(o Order, req *http.Request) {
	key := signFields(o.ID, o.Phone)
	req.Header.Set("Idempotency-Key", key)
}

func checksumHelper(body []byte, w http.ResponseWriter) {
	w.Header().Set("ETag", hashFields(string(body)))
}

type PaymentIntent struct {
	Key    string
	Status string
}

func recordKey(o Order) PaymentIntent {
	sum := sha256.Sum256([]byte(o.ID)) // want `idempotency key \(field Key\) is a bare sha256 digest`
	return PaymentIntent{Key: hex.EncodeToString(sum[:]), Status: "pending"}
}

type CacheEntry struct{ Key string }

func cacheEntry(body []byte) CacheEntry {
	sum := sha256.Sum256(body)
	return CacheEntry{Key: hex.EncodeToString(sum[:])}
}

type client struct{}

func (client) SetHeader(name, value string) {}

func restyStyle(c client, o Order) {
	sum := md5.Sum([]byte(o.ID)) // want `idempotency key \(Idempotency-Key header\) is a bare md5 digest`
	c.SetHeader("Idempotency-Key", hex.EncodeToString(sum[:]))
}

type Statement struct {
	Owner   string
	Month   string
	ItemIDs []string
}

// A digest that shortens one part of a key written beside readable parts
// that vary (the owner, the month) is a composite key, not a bare one.
func compositeKey(s Statement, req *http.Request) {
	sum := sha256.Sum256([]byte(fmt.Sprint(s.ItemIDs)))
	req.Header.Set("Idempotency-Key", s.Owner+"-"+s.Month+"-"+hex.EncodeToString(sum[:6]))
}

func compositeSprintf(s Statement, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s:%s:%x", s.Owner, s.Month, sha256.Sum256([]byte(fmt.Sprint(s.ItemIDs)))))
}

// A constant prefix beside the digest leaves the digest the only part
// that varies: still bare.
func prefixedDigest(o Order, req *http.Request) {
	sum := sha256.Sum256([]byte(o.ID + ":" + o.Phone)) // want `bare sha256 digest`
	req.Header.Set("Idempotency-Key", "charge-"+hex.EncodeToString(sum[:]))
}

type Kind string

const (
	KindBatch  Kind = "batch"
	KindSingle Kind = "single"
)

type Callback struct {
	Kind  Kind
	TxIDs []string
}

// A kind's tag beside the digest (one of a few declared values) tells no
// key from another within the kind: the digest is still the key's only
// identifying part.
func taggedDigest(c Callback, req *http.Request) {
	sum := sha256.Sum256([]byte(fmt.Sprint(c.TxIDs))) // want `bare sha256 digest`
	req.Header.Set("X-Idempotency-Key", hex.EncodeToString(sum[:8])+":"+string(c.Kind))
}

type Payment struct {
	ID             string
	IdempotencyKey string
}

// Silent: a key derived from the client's own key, drawn at random, is as
// unguessable as it (a debit's key and the credit's key made from it).
func derivedFromClientKey(p Payment, req *http.Request) {
	clientKey := p.IdempotencyKey
	sum := sha256.Sum256([]byte(clientKey + ":credit"))
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}

// Reported: the same digest over the payment's id.
func derivedFromPaymentID(p Payment, req *http.Request) {
	sum := sha256.Sum256([]byte(p.ID + ":credit")) // want `bare sha256 digest`
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}
