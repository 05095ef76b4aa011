package wholepayload

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Order struct {
	ID        string
	Cents     int64
	UpdatedAt time.Time
}

type Message struct {
	From string
	Body string
}

var secret = []byte("s")

func sign(b []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

func marshalOrder(o Order, req *http.Request) {
	b, _ := json.Marshal(o) // want `json.Marshal serializes the whole struct Order into the idempotency key`
	req.Header.Set("Idempotency-Key", sign(b))
}

func marshalPointer(o *Order) string {
	b, _ := json.Marshal(o) // want `serializes the whole struct Order`
	idemKey := sign(b)
	return idemKey
}

func sprintfV(m Message) string {
	idempotencyKey := fmt.Sprintf("%+v", m) // want `fmt.Sprintf serializes the whole struct Message`
	return idempotencyKey
}

func sprintMap(meta map[string]string, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprint(meta)) // want `fmt.Sprint serializes the whole map`
}

func embedded(o Order) string {
	b, _ := json.Marshal(map[string]any{"v": 1, "order": o}) // want `serializes the whole struct Order`
	dedupKey := sign(b)
	return dedupKey
}

func hashEncoder(o Order) string {
	mac := hmac.New(sha256.New, secret)
	json.NewEncoder(mac).Encode(o) // want `json Encode serializes the whole struct Order`
	idemKey := hex.EncodeToString(mac.Sum(nil))
	return idemKey
}

func decodedPayload(body []byte) string {
	var payload map[string]any
	json.Unmarshal(body, &payload)
	b, _ := json.Marshal(payload) // want `serializes the whole map`
	idemKey := sign(b)
	return idemKey
}

// ---- negatives ----

func explicitAnon(o Order, req *http.Request) {
	b, _ := json.Marshal(struct {
		V       int    `json:"v"`
		OrderID string `json:"order_id"`
		Cents   int64  `json:"cents"`
	}{1, o.ID, o.Cents})
	req.Header.Set("Idempotency-Key", sign(b))
}

func explicitMap(o Order) string {
	b, _ := json.Marshal(map[string]any{"v": 1, "order_id": o.ID, "cents": o.Cents})
	idemKey := sign(b)
	return idemKey
}

func builtMap(o Order) string {
	m := map[string]any{}
	m["order_id"] = o.ID
	m["cents"] = o.Cents
	b, _ := json.Marshal(m)
	idemKey := sign(b)
	return idemKey
}

type keyFields struct {
	OrderID string `json:"order_id"`
	Cents   int64  `json:"cents"`
}

func keyType(in keyFields) string {
	b, _ := json.Marshal(in)
	idemKey := sign(b)
	return idemKey
}

func domainLiteral(o Order) string {
	b, _ := json.Marshal(Order{ID: o.ID, Cents: o.Cents})
	idemKey := sign(b)
	return idemKey
}

func logged(o Order, req *http.Request) {
	b, _ := json.Marshal(o)
	log.Printf("charging %s", b)
	key := fmt.Sprintf("%s:%d", o.ID, o.Cents)
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("X-Trace", fmt.Sprintf("%+v", o))
}

func timestampField(o Order) string {
	idemKey := fmt.Sprintf("%s:%v", o.ID, o.UpdatedAt.Unix())
	return idemKey
}

func responseBody(o Order) []byte {
	b, _ := json.Marshal(o)
	return b
}

func suppressed(o Order) string {
	b, _ := json.Marshal(o) //idemcheck:ignore IDEM004 Order is frozen by contract tests
	idemKey := sign(b)
	return idemKey
}

// canonical serializes whatever it is given: the caller's argument decides.
func canonical(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// orderBytes reads the whole order itself.
func orderBytes(o Order) []byte {
	b, _ := json.Marshal(o)
	return b
}

func viaParamHelper(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", sign(canonical(o))) // want `json.Marshal \(in canonical\) serializes the whole struct Order`
}

func viaParamHelperExplicit(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", sign(canonical(map[string]any{"order_id": o.ID, "cents": o.Cents})))
}

func viaPayloadHelper(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", sign(orderBytes(o))) // want `json.Marshal \(in orderBytes\) serializes the whole struct Order`
}

func helperNotKey(o Order, w http.ResponseWriter) {
	w.Write(orderBytes(o))
}

func localKeyType(o Order) string {
	type intentV1 struct {
		OrderID string `json:"order_id"`
		Cents   int64  `json:"cents"`
	}
	in := intentV1{o.ID, o.Cents}
	b, _ := json.Marshal(in)
	idemKey := sign(b)
	return idemKey
}
