// want package:"analyzed"
// Package configured is analyzed with a custom configuration.
package configured

import "github.com/google/uuid"

type Envelope struct {
	DeliveryNo int
	Order      string
}

func Nonce() string { return "" }

func SendWithToken(token string) {}

func LoadKey(order string) string { return order + uuid.NewString() } // want LoadKey:"summary"

func customKeyName(send func(string)) {
	opKey := Nonce() // want `built from configured\.Nonce \(configured as per-attempt\)`
	send(opKey)
}

func customSink() {
	SendWithToken(uuid.NewString()) // want `built from uuid\.NewString`
}

func customFieldSource(e Envelope, send func(string)) {
	opKey := e.Order + string(rune(e.DeliveryNo)) // want `built from field DeliveryNo`
	send(opKey)
}

func customBarrier(send func(string)) {
	opKey := LoadKey("o-1")
	send(opKey)
}

func defaultNameNoLongerAKey(send func(string)) {
	dedupKey := uuid.NewString()
	send(dedupKey)
}
