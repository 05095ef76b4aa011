// Package cgo: issue 21. A file importing "C" reaches the analyzers as
// cgo's output, marked generated; it is judged by its own source, which
// no tool generated.
package cgo

// #include <stdlib.h>
import "C"

import (
	"net/http"

	"github.com/google/uuid"
)

func Post(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func Free(p *C.char) { C.free(nil) }
