package attemptkey

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM001; `idemcheck lint --explain IDEM001` prints it.
var Rule = ruledoc.Rule{
	ID:       "IDEM001",
	Analyzer: "attemptkey",
	Title:    "per-attempt value in an idempotency key",
	Why: `An idempotency key only holds if every attempt computes the same one. A key
built from a value drawn inside the attempt — uuid.New(), ulid, xid, ksuid,
math/rand or crypto/rand bytes, time.Now(), the transport's message_id,
delivery tag, request or trace id, an attempt counter, or the output of an
LLM — differs when the queue redelivers the message or the process restarts,
so the provider sees a new key and charges again. Drawing the key once per
call and reusing it in the call's own retry loop does not help: on a
redelivery, the call is the attempt.`,
	Fix: `Derive the key from the frozen intent (HMAC over an explicit field list of the
intent row written before acting), or generate it once, persist it in the
intent row (insert … on conflict do nothing) and read it back with Scan
before calling the provider.`,
	Bad: `func charge(ctx context.Context, o Order) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents)}
	params.IdempotencyKey = stripe.String(uuid.NewString()) // new key per attempt
	_, err := paymentintent.New(params)
	return err
}`,
	Good: `func charge(ctx context.Context, db *pgxpool.Pool, secret []byte, o Order) error {
	// o.Intent is the intent's JSON as the message carried it: every
	// attempt derives the same key from it.
	key, err := derive.DefaultSchema().Key(secret, derive.Intent{
		Tenant: o.TenantID, Action: "pix.cobranca", Payload: o.Intent,
	})
	if err != nil {
		return err
	}
	_, err = db.Exec(ctx, ` + "`" + `insert into payment_intents (tenant_id, order_id, idem_key)
		values ($1, $2, $3) on conflict (tenant_id, order_id) do nothing` + "`" + `,
		o.TenantID, o.ID, key)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents)}
	params.IdempotencyKey = stripe.String(key) // same key on every attempt
	_, err = paymentintent.New(params)
	return err
}`,
}
