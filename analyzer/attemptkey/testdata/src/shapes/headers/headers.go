// Package headers: idempotency header names in the spellings real
// providers use, in any case, and held in constants, package variables or
// http.CanonicalHeaderKey results, are resolved by value.
package headers

import (
	"net/http"

	"github.com/google/uuid"
)

const idemHeader = "Idempotency-Key"

var canonical = http.CanonicalHeaderKey("x-idempotency-key")

var yooKassa = "Idempotence-Key"

// Found.

func yookassa(req *http.Request) {
	req.Header.Set("Idempotence-Key", uuid.NewString()) // want `used as idempotency key|built from uuid\.NewString`
}

func checkout(req *http.Request) {
	req.Header.Set("Cko-Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func idempotent(req *http.Request) {
	req.Header["Idempotent-Key"] = []string{uuid.NewString()} // want `built from uuid\.NewString`
}

func lowerCase(req *http.Request) {
	req.Header.Set("idempotency-key", uuid.NewString()) // want `built from uuid\.NewString`
}

func constantName(req *http.Request) {
	req.Header.Set(idemHeader, uuid.NewString()) // want `built from uuid\.NewString`
}

func canonicalVar(req *http.Request) {
	req.Header.Set(canonical, uuid.NewString()) // want `built from uuid\.NewString`
}

func plainVar(req *http.Request) {
	req.Header.Add(yooKassa, uuid.NewString()) // want `built from uuid\.NewString`
}

// Silent.

// A request id header is not a key.
func requestID(req *http.Request) {
	req.Header.Set("X-Request-Id", uuid.NewString())
}

// The key header with a stable value.
func stableValue(req *http.Request, orderID string) {
	req.Header.Set(canonical, "order-"+orderID)
}

var mutable = "Idempotency-Key"

func setMutable() { mutable = "X-Trace" }

// A variable reassigned elsewhere does not resolve: no guess.
func reassignedName(req *http.Request) {
	req.Header.Set(mutable, uuid.NewString())
}

// The incoming request's own key, read through a resolved name: stable
// across the client's retries.
func incomingKey(in *http.Request, out *http.Request) {
	out.Header.Set(idemHeader, in.Header.Get(canonical))
}
