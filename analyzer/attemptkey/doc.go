// Package attemptkey defines the analyzer of rule IDEM001, which reports
// per-attempt values flowing into idempotency keys.
//
// # Analyzer IDEM001
//
// IDEM001: per-attempt value in an idempotency key
//
// An idempotency key only holds if every attempt computes the same one. A key
// built from a value drawn inside the attempt — uuid.New(), ulid, xid, ksuid,
// math/rand or crypto/rand bytes, time.Now(), the transport's message_id,
// the broker's delivery tag or redelivery count, a request or trace id, a
// retry loop's counter, or the output of an LLM — differs when the queue
// redelivers the message or the process restarts,
// so the provider sees a new key and charges again. Drawing the key once per
// call and reusing it in the call's own retry loop holds for those retries,
// but not where a broker delivery, a queued job or a webhook reaches the
// call: on a redelivery, the call is the attempt. From an HTTP route or a
// command line, a key drawn once and reused by the call's own retry loop
// is not reported: nothing redelivers a request. A key drawn per call
// there still is: the client's retry of the request (a timeout, a double
// click) draws another, so a route that moves money should take the
// client's Idempotency-Key or derive one from the stored intent. In
// Python and TypeScript, nor is a key reported that is sent to a payment
// SDK's operation that moves no money (a customer, a tax calculation, a
// cancel): a retry leaves a spare object, not a second charge. A key
// drawn only when the request being served brought none (key :=
// r.Header.Get("Idempotency-Key"); if key == "" { key = uuid.NewString() })
// is not reported in code only requests reach: a client that sends its
// own key gets it used, and one that sends none asked for none. The same
// fallback in a consumer is: the redelivered message brings no key again.
// A fallback for a key handed in as a parameter or a parameter's field
// (if in.IdempotencyKey == "" { in.IdempotencyKey = uuid.NewString() },
// also tested trimmed: strings.TrimSpace(key) == ""), in an exported
// function only other packages call, is judged at each call: one that
// passes a composite literal leaving the field out or "" is reported
// there, any other (a key, a variable the caller filled) is not, and the
// function itself is not reported.
//
// In Go, a key drawn in code that only exported functions its package does
// not call lead to (no route, consumer or main of the package reaches it) is
// reported when some analyzed package calls one of them, directly or through
// an interface; when lint's patterns hold a main package, one nothing calls
// is dead code and is not reported; linting a library alone leaves its
// callers out of view, and it is reported, naming the function it is
// reached through.
//
// # Fix
//
// Derive the key from the frozen intent (HMAC over an explicit field list of the
// intent row written before acting, as idemcheck's derive package does), or
// generate it once, persist it in the intent row (insert … on conflict do
// nothing) and read it back with Scan before calling the provider.
//
// # Bad
//
//	func charge(o Order) error {
//		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents)}
//		params.IdempotencyKey = stripe.String(uuid.NewString()) // a new key per attempt
//		_, err := paymentintent.New(params)
//		return err
//	}
//
// # Good
//
//	func charge(o Order, secret []byte) error {
//		// o.Intent is the intent's JSON as the message carried it: every
//		// attempt derives the same key from it.
//		key, err := derive.DefaultSchema().Key(secret, derive.Intent{
//			Tenant: o.TenantID, Action: "pix.cobranca", Payload: o.Intent,
//		})
//		if err != nil {
//			return err
//		}
//		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Cents)}
//		params.IdempotencyKey = stripe.String(key) // the same key on every attempt
//		_, err = paymentintent.New(params)
//		return err
//	}
//
// # Bad (Python)
//
//	def charge(order):
//	    key = str(uuid.uuid4())  # a new key per attempt
//	    stripe.PaymentIntent.create(amount=order["cents"], currency="brl", idempotency_key=key)
//
// # Good (Python)
//
//	def charge(order):
//	    # order["intent"] is the intent as the message carried it: every
//	    # attempt derives the same key from it.
//	    key = hmac.new(SECRET, order["intent"].encode(), hashlib.sha256).hexdigest()
//	    stripe.PaymentIntent.create(amount=order["cents"], currency="brl", idempotency_key=key)
//
// # Bad (TypeScript)
//
//	export async function charge(order: Order) {
//	  await stripe.paymentIntents.create(
//	    { amount: order.cents, currency: "brl" },
//	    { idempotencyKey: randomUUID() }, // a new key per attempt
//	  );
//	}
//
// # Good (TypeScript)
//
//	export async function charge(order: Order) {
//	  // order.intent is the intent as the message carried it.
//	  const key = createHmac("sha256", SECRET).update(order.intent).digest("hex");
//	  await stripe.paymentIntents.create({ amount: order.cents, currency: "brl" }, { idempotencyKey: key });
//	}
//
// # How it works
//
// The analyzer tracks values forward over SSA, from sources to sinks. It
// judges a value by where it comes from and where it goes, never by what
// it is called: a counter decoded from the message body is as stable as
// the message, whatever its name, and a log field named idempotency_key
// repeats nothing.
//
//   - Sources (per-attempt values): github.com/google/uuid, gofrs/uuid,
//     oklog/ulid, rs/xid, segmentio/ksuid, math/rand, math/rand/v2,
//     crypto/rand (results, and buffers filled through Read or
//     io.ReadFull(rand.Reader, buf)), time.Now and everything computed from
//     it, stripe-go's NewIdempotencyKey; struct fields, map keys and JSON
//     tags named like transport or observability identity (message_id,
//     wamid, delivery_tag, receipt_handle, request_id, trace_id, span_id).
//     A variable's or parameter's name is no evidence: a parameter named
//     messageID or requestID is what its callers pass, judged where they
//     are in view (a consumer passing d.MessageId is reported there, a
//     caller passing the payment's id is not). Attempt counters count
//     by provenance only: redelivery metadata the broker sets, read from
//     the transport envelope (amqp091 Redelivered and DeliveryTag, SQS
//     ReceiptHandle, NATS NumDelivered, Pub/Sub DeliveryAttempt, River's
//     Attempt, Temporal's activity Attempt, asynq's GetRetryCount), and
//     loop counters this process increments (for n := 0; n < max; n++, not
//     the index of a loop over data); a field, variable or function named
//     Attempt, Retry or Now is never evidence. And the
//     output of LLM clients (openai-go, go-openai, anthropic-sdk-go, …),
//     including net/http responses from a constant model API URL
//     (api.openai.com, api.anthropic.com, …/chat/completions).
//   - Sinks (key construction): http.Header Set/Add/index with an
//     Idempotency-Key-like constant name, any call passing such a constant
//     name followed by a value, stripe-go's IdempotencyKey field and
//     SetIdempotencyKey, AWS SDK ClientToken, IdempotencyToken,
//     ClientRequestToken, CallerReference and MessageDeduplicationId, and
//     any struct field, JSON tag, variable, parameter or map key whose
//     name matches the key pattern of package keyname (and the plain Key of
//     a struct named like an idempotency record). The name decides only
//     which field or parameter is the key, never a whole value or a
//     function: a function named idempotencyKeyFor is reported where its
//     result is sent, not for its name. Calls the key model marks observe
//     (logging, metrics, tracing, fmt.Errorf and other error values) are
//     never sinks, nor are maps only handed to them (logrus.Fields), nor
//     a map or struct only handed to the answer to the request being
//     served: a call whose receiver or argument is the response writer
//     (a type with WriteHeader), an encoder made over it, or a request
//     context holding it. A publish's dedup id (NATS MsgId, JetStream
//     WithMsgID, asynq's TaskID) is a key.
//   - Barriers: values read back from the database (Scan, pgx.CollectRows,
//     RowTo…, sqlx Get/Select), the incoming request's own Idempotency-Key
//     header, and configuration (os.Getenv).
//
// Propagation is flow-insensitive within a function, except that a read of a
// local variable after a barrier filled it (key := uuid.NewString();
// row.Scan(&key)) sees only the read-back value, and field-sensitive:
// through assignment, struct fields (one tainted field does not taint its
// siblings), slices, maps, channels, closures (captured variables), func
// values (a callback passed to a higher-order helper, a method value), string
// operations, fmt, strconv, hex/base64, hash writes and sums, json.Marshal
// and json.Unmarshal. Calls use summaries: a function that returns a
// per-attempt value, a parameter that reaches the result or an
// out-parameter, and a parameter that reaches a key sink. Summaries cross
// package boundaries as object facts. Standard-library functions, which
// the analyzer does not summarize, pass taint from their arguments to their
// results, with models for writers, readers and decoders.
//
// A key is reported once per mistake, at the effect: a key field set in a
// constructor (NewEventHeader) is reported at the one call that sends the
// struct (followed through returns, enclosing structs and slices), with
// the source and the constructor as related information. Several
// name-based sinks of one
// source in one function are reported where the key leaves the function
// (the call that sends it), the others as related information. A key that
// a shared helper draws and attaches (an SDK's request builder filling in
// a default IdempotencyKey) and that many API methods then send is
// reported once, where the helper attaches it, with "sent by N calls" and
// the calls as related information; with a single such call, that call is
// reported as usual.
//
// The analyzer builds SSA itself (as buildssa does) rather than requiring
// buildssa, so that it can skip standard-library packages: under go vet
// every dependency is analyzed for facts, and building SSA for the whole
// standard library would dominate the run time.
//
// A finding can be suppressed with a reason:
//
//	//idemcheck:ignore IDEM001 the key is read back from the intent row
package attemptkey
