package flows

import (
	"fmt"
	"net/http"
)

type Order struct {
	ID     string
	Amount float64
}

type Params struct {
	IdempotencyKey string
}

const header = "Idempotency-Key"

var canonical = http.CanonicalHeaderKey("idempotence-key")

// A variable named like a key; field-sensitive: o.Amount is not on the slice.
func variable(o Order) string {
	prefix := "pay"
	idemKey := prefix + ":" + o.ID // want `sink variable idemKey <- o\.ID, prefix`
	return idemKey
}

// Header names by value: constants, package variables, CanonicalHeaderKey.
func headers(req *http.Request, o Order) {
	req.Header.Set(header, o.ID)            // want `sink Idempotency-Key header <- o\.ID`
	req.Header.Set(canonical, "x"+o.ID)     // want `sink idempotence-key header <- o\.ID`
	req.Header["Cko-Idempotency-Key"] = nil // want `sink Cko-Idempotency-Key header <-`
	req.Header.Set("X-Request-Id", o.ID)    // not a key
}

// Fields and map entries.
func fields(o Order) (Params, map[string]string) {
	var p Params
	p.IdempotencyKey = fmt.Sprint(o.ID, o.Amount)   // want `sink field IdempotencyKey <- o\.Amount, o\.ID`
	m := map[string]string{"idempotency_key": o.ID} // want `sink map entry idempotency_key <- o\.ID`
	return p, m
}

// A parameter named like a key makes the argument a key, and a helper
// whose parameter reaches a key makes its callers' arguments keys.
func charge(amount int64, idempotencyKey string) {}

func send(k string) {
	var p Params
	p.IdempotencyKey = k // want `sink field IdempotencyKey <- k`
}

func callers(o Order) {
	charge(1, "o-"+o.ID) // want `sink parameter idempotencyKey of charge <- o\.ID`
	send(o.ID)           // want `sink argument of send that becomes its idempotency key <- o\.ID`
}

// Results of a function named like a key are keys; a lookup by key is not.
func idempotencyKey(o Order) string {
	return "k-" + o.ID // want `sink result of idempotencyKey <- o\.ID`
}

type Record struct{ Key string }

func GetByIdempotencyKey(k string) Record { return Record{Key: k} }
