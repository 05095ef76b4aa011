// Package sdkkey defines the analyzer of rule IDEM002, which reports stripe-go
// write calls whose params never get an idempotency key.
//
// # Analyzer IDEM002
//
// IDEM002: the SDK draws the idempotency key for you
//
// A stripe-go call (in Python, stripe-python's; in TypeScript and
// JavaScript, stripe-node's) that moves money or creates a billable object (a
// charge, payment intent, transfer, payout, refund, invoice, invoice item,
// credit note, subscription or top-up) is made with params that never get
// an idempotency key, neither in the function nor from its caller. Creates
// that move no money and bill nothing (a checkout or billing portal
// session, a webhook endpoint, an account link, a customer) are not
// reported: a repeat leaves a spare object; so is a payment intent created
// without confirm (Confirm, confirm=True, confirm: true) in params built
// where it is sent, which the customer or one later confirm charges. Nor are a capture, a confirm
// or a pay: they act on an object that exists, and Stripe does each at most
// once per object, so a repeat fails instead of charging. The key model's
// operation table says which is which. stripe-go then generates one per call from
// time.Now and a random number. That protects the SDK's own network retries,
// but when the queue redelivers the message your handler makes a new call with
// a new key, and Stripe charges again.
// It is reported on a path that can run the call again: code a broker
// delivery, a queued job or a webhook reaches, a loop that retries the
// call, or a function whose callers are out of view (for an exported Go
// function, the packages that call it decide). In Python and
// TypeScript a function that polls the broker itself (an SQS receive loop)
// is a consumer too, and a method called only through an instance its
// module exports has the calls that name the instance as callers, also
// on a receiver of unknown type (ctx.services.stripe.transfer for export
// const stripe = new StripeService()). A call reached only from an
// HTTP route or a command line is not reported; in TypeScript a route
// registered at the end of a chain of calls counts (new
// Elysia().post("/refund", fn), a tRPC procedure.input(…).mutation(fn)),
// and so does a GraphQL resolver map ({ Mutation: { addCredit } }). In
// Go, a method by which a type implements an interface that gqlgen's,
// gRPC's or Twirp's generated code dispatches requests to answers a
// request, as do handlers of Lambda's HTTP events and Connect's requests;
// Lambda's asynchronous and stream events (SNS, EventBridge, Kinesis, S3)
// are redelivered.
//
// # Fix
//
// Set params.IdempotencyKey (or SetIdempotencyKey) on every write, from the
// frozen intent: derived from the intent row or stored in it and read back.
//
// # Bad
//
//	func charge(o Order) (*stripe.PaymentIntent, error) {
//		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents), Currency: stripe.String("brl"), Confirm: stripe.Bool(true)}
//		return paymentintent.New(params) // stripe-go draws a new key per call
//	}
//
// # Good
//
//	func charge(o Order, intentKey string) (*stripe.PaymentIntent, error) {
//		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents), Currency: stripe.String("brl"), Confirm: stripe.Bool(true)}
//		params.SetIdempotencyKey(intentKey) // read back from the intent row
//		return paymentintent.New(params)
//	}
//
// # Bad (Python)
//
//	@shared_task
//	def refund_order(charge_id, cents):
//	    stripe.Refund.create(charge=charge_id, amount=cents)  # a new key per call
//
// # Good (Python)
//
//	@shared_task
//	def refund_order(charge_id, cents, intent_key):
//	    stripe.Refund.create(charge=charge_id, amount=cents, idempotency_key=f"refund-{intent_key}")
//
// # Bad (TypeScript)
//
//	export async function refundOrder(chargeId: string, cents: number) {
//	  await stripe.refunds.create({ charge: chargeId, amount: cents }); // a new key per call
//	}
//
// # Good (TypeScript)
//
//	export async function refundOrder(chargeId: string, cents: number, intentKey: string) {
//	  await stripe.refunds.create({ charge: chargeId, amount: cents }, { idempotencyKey: `refund-${intentKey}` });
//	}
//
// # How it works
//
// The analyzer follows the params value back to where it is built in the
// function, and through helpers that take the params as a parameter (object
// facts), so a caller that sets the key is not reported. Params of unknown
// origin are left alone. In Python and TypeScript, the call's keyword
// arguments and options object are read where the call is made; options
// handed in, or spread from a value it cannot see into, are left alone. A
// key that is the function's own parameter (createPaymentIntent({…,
// idempotencyKey})) is its callers' to give: a caller that passes none is
// reported at its call.
//
// Whether the call can run again is decided across packages. A write
// whose only way of repeating is that its exported function may be
// called from elsewhere is held until the packages that import it are
// analyzed: a caller in code a delivery, a job, a webhook or a retry loop
// reaches reports it, at the write, with that call as related
// information; a caller reached only from a route or a command line
// settles it; a caller that is itself exported passes it on. A call
// through one of the module's interfaces counts the same way for every
// method of the module that may implement it: the method called, on a
// type that has all the interface's methods. A write that no analyzed
// package calls (nor a package outside the patterns) is reported, its
// callers being out of view, unless its own package calls it (those calls
// decided), or, in an application (the patterns hold a main package),
// nothing calls it, refers to it as a value, or hands its type to a
// library's interface (a job given to a cron library): dead code. Plain go
// vet, which has no driver to settle them, reports every such write where
// it is.
package sdkkey
