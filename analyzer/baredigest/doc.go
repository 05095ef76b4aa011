// Package baredigest defines an Analyzer that reports idempotency keys that
// are a plain digest with no secret (rule IDEM005).
//
// # Analyzer baredigest
//
// baredigest: report idempotency keys that are a bare sha256/sha1/md5/fnv digest
//
// A key that is sha256(order_id + amount) can be recomputed by anyone who
// knows or guesses the fields, so valid keys can be enumerated and
// collisions forced. Use HMAC-SHA256 with a secret key read from the
// environment. Digests that never reach a key (content checksums, cache
// keys, ETags) are not reported, nor are digests keyed by a secret, nor
// content fingerprints used to deduplicate inbound messages (dedupKey,
// MessageDeduplicationId): those are never sent to a provider as a key.
// The last is judged by flow, not by name: a variable or field holding a
// digest of a received request's or message's body (http.Request.Body,
// an AMQP delivery, a NATS message, an SQS or Kafka message) and passed to
// a lookup (a SELECT, or a call named Find/Get/Exists/Seen/Claim…) is a
// fingerprint, whatever it is called. Sent on as a header or SDK key, the
// same digest is still reported there.
package baredigest
