// want package:"analyzed"
// Package outparams tracks buffers and values filled through pointers.
package outparams

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

func readFull(req *http.Request) {
	var b [16]byte
	io.ReadFull(rand.Reader, b[:])
	req.Header.Set("Idempotency-Key", base64.RawURLEncoding.EncodeToString(b[:])) // want `built from rand\.Reader \(random per attempt\)`
}

func fill(buf []byte) { rand.Read(buf) }

func helperFills(req *http.Request) {
	buf := make([]byte, 8)
	fill(buf)
	req.Header.Set("Idempotency-Key", base64.StdEncoding.EncodeToString(buf)) // want `built from rand\.Read`
}

type Envelope struct {
	OrderID string `json:"order_id"`
	Nonce   string `json:"nonce"`
}

func unmarshalTainted(req *http.Request) {
	raw, _ := json.Marshal(map[string]string{"order_id": "1", "nonce": uuid.NewString()})
	var env Envelope
	_ = json.Unmarshal(raw, &env)
	req.Header.Set("Idempotency-Key", env.Nonce) // want `built from uuid\.NewString`
}

type Order struct {
	ID        string
	Cents     int64
	CreatedAt time.Time
}

func marshalWhole(req *http.Request, o Order) {
	o.CreatedAt = time.Now()
	b, _ := json.Marshal(o)
	req.Header.Set("Idempotency-Key", string(b)) // want `built from time\.Now`
}

func setNonce(o *Envelope) { o.Nonce = uuid.NewString() }

func outField(req *http.Request) {
	var env Envelope
	setNonce(&env)
	req.Header.Set("Idempotency-Key", env.OrderID) // silent: sibling field
	req.Header.Set("Idempotency-Key", env.Nonce)   // want `built from uuid\.NewString`
}

func builder(req *http.Request, orderID string) {
	var sb strings.Builder
	sb.WriteString(orderID)
	sb.WriteString(uuid.NewString())
	req.Header.Set("Idempotency-Key", sb.String()) // want `built from uuid\.NewString`
}
