// want package:"analyzed"
// Package crosspkg uses keylib: its summaries arrive as facts.
package crosspkg

import (
	"net/http"

	"github.com/google/uuid"
	"keylib"
)

func sourceFact(req *http.Request) {
	req.Header.Set("Idempotency-Key", keylib.NewNonce()) // want `built from uuid\.NewString \(random per attempt\) via keylib\.NewNonce;`
}

func paramToResult(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", keylib.Join(orderID, uuid.NewString())) // want `built from uuid\.NewString`
}

func paramToSink(req *http.Request) {
	keylib.SetKey(req, uuid.NewString()) // want `built from uuid\.NewString`
}

func paramIgnored(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", keylib.Stable(orderID, uuid.NewString()))
}

func outParamField(req *http.Request) {
	var k keylib.Keyed
	keylib.Fill(&k, "o-1")
	req.Header.Set("Idempotency-Key", k.Order)
	req.Header.Set("Idempotency-Key", k.Nonce) // want `built from uuid\.NewString`
}
