// want package:"analyzed"
// Package directives covers //idemcheck:ignore.
package directives

import (
	"net/http"

	"github.com/google/uuid"
)

func suppressedAbove(req *http.Request) {
	//idemcheck:ignore IDEM001 test double; the provider ignores the key
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

func suppressedSameLine(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString()) //idemcheck:ignore IDEM001 sandbox only
}

func noReason(req *http.Request) {
	//idemcheck:ignore IDEM001
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func otherRule(req *http.Request) {
	//idemcheck:ignore IDEM002 unrelated
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}
