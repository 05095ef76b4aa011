// Package sdkkey defines an Analyzer that reports stripe-go write calls
// whose params never get an idempotency key (rule IDEM002).
//
// # Analyzer sdkkey
//
// sdkkey: report stripe-go write calls that leave the idempotency key to the SDK
//
// When a write (create, update, confirm, capture, cancel, refund, ...) is
// sent without Params.IdempotencyKey, stripe-go draws one itself from the
// time and a random number, per call. A redelivered message makes a new call
// with a new key and Stripe charges again. The analyzer follows the params
// value back to where it is built in the function, and through helpers that
// take the params as a parameter (object facts), so a caller that sets the
// key is not reported. Params of unknown origin are left alone.
package sdkkey
