// Package answer: a key put into the answer to the request being served
// goes back to that request's caller, not to anyone whose effect it
// guards; the same key put into a request sent on is a key.
package answer

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
)

type receipt struct {
	Status         string `json:"status"`
	IdempotencyKey string `json:"idempotency_key"`
}

// EchoKey answers with the key it queued the work under: the map goes
// to json.NewEncoder(w), the response.
func EchoKey(w http.ResponseWriter, r *http.Request) {
	key := uuid.NewString()
	w.WriteHeader(http.StatusAccepted)
	json.NewEncoder(w).Encode(map[string]string{"status": "queued", "idempotency_key": key})
}

// EchoReceipt answers with a struct that carries the key.
func EchoReceipt(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(receipt{Status: "queued", IdempotencyKey: uuid.NewString()})
}

// writeJSON is the project's own answer helper: it takes the writer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// EchoThroughHelper answers through writeJSON.
func EchoThroughHelper(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusAccepted, map[string]string{"idempotency_key": uuid.NewString()})
}

// ForwardKey sends the same map on to the provider: the key there is the
// provider's, drawn anew for each retried request.
func ForwardKey(w http.ResponseWriter, r *http.Request) {
	body, _ := json.Marshal(map[string]string{"status": "queued", "idempotency_key": uuid.NewString()}) // want `idempotency key built from uuid.NewString`
	resp, err := http.Post("https://api.provider.example/v1/payouts", "application/json", bytes.NewReader(body))
	if err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	resp.Body.Close()
}
