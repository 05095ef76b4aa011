// Package clientkey: a key drawn only when the request being served
// brought none is the client's choice in a route, and a per-attempt key
// in a consumer, whose redelivery brings none again.
package clientkey

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	amqp "github.com/rabbitmq/amqp091-go"
)

type txMessage struct {
	Account        string `json:"account"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"idempotency_key"`
}

func publish(ctx context.Context, m txMessage) error {
	body, _ := json.Marshal(m)
	resp, err := http.Post("https://ledger.example/v1/tx", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// EnqueueTx takes the client's key from the body or the header, and
// draws one only when the client sent neither.
func EnqueueTx(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Account        string `json:"account"`
		Amount         int64  `json:"amount"`
		IdempotencyKey string `json:"idempotency_key"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := body.IdempotencyKey
	if key == "" {
		key = r.Header.Get("Idempotency-Key")
	}
	if key == "" {
		key = uuid.NewString()
	}
	if err := publish(r.Context(), txMessage{Account: body.Account, Amount: body.Amount, IdempotencyKey: key}); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

// EnqueueAlways draws a key whatever the client sent: a retried request
// publishes a second transaction.
func EnqueueAlways(w http.ResponseWriter, r *http.Request) {
	key := uuid.NewString()
	if err := publish(r.Context(), txMessage{Account: r.FormValue("account"), IdempotencyKey: key}); err != nil { // want `built from uuid\.NewString`
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

// OnDelivery is the same fallback in a consumer: the redelivered message
// brings no key again, and the fallback draws another.
func OnDelivery(ctx context.Context, d amqp.Delivery) error {
	var m txMessage
	if err := json.Unmarshal(d.Body, &m); err != nil {
		return err
	}
	if m.IdempotencyKey == "" {
		m.IdempotencyKey = uuid.NewString() // want `built from uuid\.NewString`
	}
	return publish(ctx, m)
}

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/tx", EnqueueTx)
	mux.HandleFunc("POST /v1/tx-always", EnqueueAlways)
}
