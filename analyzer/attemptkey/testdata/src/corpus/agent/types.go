// Package agent is the second half of the labelled corpus: a WhatsApp
// payment agent with helpers, methods, closures and stores.
package agent

import (
	"net/http"
	"time"
)

type Order struct {
	OrderID    string `json:"order_id"`
	CustomerID string `json:"customer_id"`
	Amount     int64  `json:"amount"`
	CreatedAt  time.Time
}

type Inbound struct {
	WamID   string `json:"wamid"`
	From    string `json:"from"`
	OrderID string `json:"order_id"`
	Text    string `json:"text"`
}

type chargeRequest struct {
	Key    string
	Amount int64
}

type Handler struct {
	prefix string
	http   *http.Client
	url    string
}

func (h *Handler) newRequest(r *http.Request) *http.Request {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, h.url, nil)
	return req
}
