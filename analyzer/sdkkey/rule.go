package sdkkey

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM002.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem002",
	Analyzer: "sdkkey",
	ID:       "IDEM002",
	Title:    "the SDK draws the idempotency key for you",
	Why: `A stripe-go write call (create, update, confirm, capture, cancel, refund...)
is made with params that never get an idempotency key, neither in the
function nor from its caller. stripe-go then generates one per call from
time.Now and a random number. That protects the SDK's own network retries,
but when the queue redelivers the message your handler makes a new call with
a new key, and Stripe charges again. Set the key from the frozen intent
(derived from, or stored in, the intent row) on every write.`,
	Fix: `Set params.IdempotencyKey (or SetIdempotencyKey) on every write, from the
frozen intent: derived from the intent row or stored in it and read back.`,
	Bad: `params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents), Currency: stripe.String("brl")}
pi, err := paymentintent.New(params)`,
	Good: `params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents), Currency: stripe.String("brl")}
params.SetIdempotencyKey(intent.Key) // read back from the intent row
pi, err := paymentintent.New(params)`,
}
