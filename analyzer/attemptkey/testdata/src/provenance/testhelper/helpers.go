// Package testhelper: shape 5 of issue 18. Test support outside _test.go
// (functions taking testing.TB) is test code, skipped unless --tests.
package testhelper

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
)

// Silent: a helper of the end-to-end tests.
func PostPayment(t *testing.T, req *http.Request) {
	t.Helper()
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

// Silent: any testing.TB.
func PostWith(tb testing.TB, req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

// Found: production code of the same package.
func Post(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}
