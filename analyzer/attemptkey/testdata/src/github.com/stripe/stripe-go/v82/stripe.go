// Package stripe is a minimal stub of github.com/stripe/stripe-go/v82 for tests.
package stripe

type Params struct {
	IdempotencyKey *string `form:"-"`
	Metadata       map[string]string
}

func (p *Params) SetIdempotencyKey(val string) { p.IdempotencyKey = &val }

type PaymentIntentParams struct {
	Params   `form:"*"`
	Amount   *int64
	Currency *string
	Customer *string
}

type PaymentIntent struct {
	ID string
}

func String(v string) *string { return &v }
func Int64(v int64) *int64    { return &v }

// NewIdempotencyKey draws a key per call, as the real one does.
func NewIdempotencyKey() string { return "" }
