// Package pay is a labelled corpus of payment handlers: queue and webhook
// consumers that charge a provider. Lines with a want comment must be
// reported; every other line must stay silent.
package pay

import (
	"net/http"
	"time"
)

// Order is the business intent decoded from the inbound message body.
type Order struct {
	OrderID    string `json:"order_id"`
	CustomerID string `json:"customer_id"`
	Amount     int64  `json:"amount"`
	Currency   string `json:"currency"`
	CreatedAt  time.Time
}

// Job is what the worker queue hands to a consumer.
type Job struct {
	ID         string
	OrderID    string
	Attempt    int
	RetryCount int
	Payload    []byte
}

// WAMessage is one WhatsApp Cloud API message.
type WAMessage struct {
	Mid  string `json:"message_id"`
	From string `json:"from"`
	Text string `json:"text"`
}

// Extraction is what the model extracts from a customer's message.
type Extraction struct {
	OrderRef string `json:"order_ref"`
	Amount   int64  `json:"amount"`
	PixKey   string `json:"pix_key"`
}

// Intent is the row written before the provider is called.
type Intent struct {
	TenantID string
	OrderID  string
	Key      string
	Amount   int64
}

var client = &http.Client{Timeout: 10 * time.Second}

const providerURL = "https://api.provider.example/v1/charges"
