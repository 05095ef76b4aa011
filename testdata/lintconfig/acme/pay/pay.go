// Package pay is a payment provider's client.
package pay

// Charge charges amount; ref is the provider's idempotency reference.
func Charge(ref string, amount int64) error { return nil }

// Transfer is a transfer request; the provider deduplicates by
// OperationRef.
type Transfer struct {
	OperationRef string
	Amount       int64
}

// Send sends a transfer.
func Send(t Transfer) error { return nil }
