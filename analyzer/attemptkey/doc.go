// Package attemptkey defines an Analyzer (rule IDEM001) that reports
// per-attempt values flowing into idempotency keys.
//
// # Analyzer attemptkey
//
// attemptkey: report idempotency keys built from values drawn inside the attempt
//
// An idempotency key only holds if every attempt computes the same one. The
// analyzer tracks values forward over SSA, from sources to sinks:
//
//   - Sources (per-attempt values): github.com/google/uuid, gofrs/uuid,
//     oklog/ulid, rs/xid, segmentio/ksuid, math/rand, math/rand/v2,
//     crypto/rand (results, and buffers filled through Read or
//     io.ReadFull(rand.Reader, buf)), time.Now and everything computed from
//     it, stripe-go's NewIdempotencyKey; struct fields, map keys and JSON
//     tags named like transport or observability identity (message_id,
//     wamid, delivery_tag, receipt_handle, request_id, trace_id, span_id)
//     and attempt counters (Attempt, RetryCount, Redelivered); variables
//     so named count when they are counters or hold a parameter (a handler
//     called with the delivery's id), not when the function assigns them a
//     value of its own (requestID := deriveKey(o)); and the
//     output of LLM clients (openai-go, go-openai, anthropic-sdk-go, …),
//     including net/http responses from a constant model API URL
//     (api.openai.com, api.anthropic.com, …/chat/completions).
//   - Sinks (key construction): http.Header Set/Add/index with an
//     Idempotency-Key-like constant name, any call passing such a constant
//     name followed by a value, stripe-go's IdempotencyKey field and
//     SetIdempotencyKey, AWS SDK ClientToken, IdempotencyToken,
//     ClientRequestToken, CallerReference and MessageDeduplicationId, and
//     any struct field, JSON tag, variable, parameter, map key or function
//     result whose name matches the key pattern of package keyname.
//   - Barriers: values read back from the database (Scan, pgx.CollectRows,
//     RowTo…, sqlx Get/Select), the incoming request's own Idempotency-Key
//     header, and configuration (os.Getenv).
//
// Propagation is flow-insensitive within a function, except that a read of a
// local variable after a barrier filled it (key := uuid.NewString();
// row.Scan(&key)) sees only the read-back value, and field-sensitive:
// through assignment, struct fields (one tainted field does not taint its
// siblings), slices, maps, channels, closures (captured variables), string
// operations, fmt, strconv, hex/base64, hash writes and sums, json.Marshal
// and json.Unmarshal. Calls use summaries: a function that returns a
// per-attempt value, a parameter that reaches the result or an
// out-parameter, and a parameter that reaches a key sink. Summaries cross
// package boundaries as object facts. Standard-library functions, which
// the analyzer does not summarize, pass taint from their arguments to their
// results, with models for writers, readers and decoders.
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
