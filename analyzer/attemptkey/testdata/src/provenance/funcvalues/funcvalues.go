// Package funcvalues: a key passed through a func value, a higher-order
// helper's callback or a method value is followed (issue 18, C).
package funcvalues

import (
	"net/http"

	"github.com/google/uuid"
)

func setKey(req *http.Request, k string) { req.Header.Set("Idempotency-Key", k) }

func setTrace(req *http.Request, k string) { req.Header.Set("X-Trace", k) }

func apply(f func(*http.Request, string), req *http.Request, k string) { f(req, k) }

// Found: through the callback.
func viaCallback(req *http.Request) {
	apply(setKey, req, uuid.NewString()) // want `built from uuid\.NewString`
}

type client struct{}

func (client) send(req *http.Request, k string) { req.Header.Set("Idempotency-Key", k) }

// Found: through a method value.
func viaMethodValue(c client, req *http.Request) {
	g := c.send
	g(req, uuid.NewString()) // want `built from uuid\.NewString`
}

type tracer struct{}

func (tracer) trace(req *http.Request, k string) { req.Header.Set("X-Trace", k) }

// Silent: the method value sets no key header.
func viaTracer(t tracer, req *http.Request) {
	g := t.trace
	g(req, uuid.NewString())
}
