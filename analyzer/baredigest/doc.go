// Package baredigest defines the analyzer of rule IDEM005, which reports
// idempotency keys that are a plain digest with no secret.
//
// # Analyzer IDEM005
//
// IDEM005: bare digest as an idempotency key
//
// The key is a plain sha256/sha1/md5/fnv (or a name-based UUID) of fields anyone
// can guess: an order id, a phone number, an amount. Whoever reproduces the hash
// can enumerate valid keys, replay or pre-empt them, and learn which customers
// paid what. Digests that never reach a key (content checksums, cache keys,
// ETags), digests keyed by a secret, and content fingerprints used to
// deduplicate inbound messages (dedupKey, MessageDeduplicationId) are not
// reported: those are never sent to a provider as a key. The last is judged
// by flow, not by name: a variable or field holding a digest of a received
// request's or message's body (http.Request.Body, an AMQP delivery, a NATS
// message, an SQS or Kafka message), or over the fields of what was decoded
// from it, and passed to a lookup (a SELECT, or a call named
// Find/Get/Exists/Seen/Claim…), alone or in the struct that holds it, is a
// fingerprint, whatever it is called and wherever the request sits. Sent on as a header or SDK key, the same digest is still reported
// there. A digest written beside parts of the key that vary and can be
// read (owner + "-" + month + "-" + hex.EncodeToString(sum[:6])) shortens
// one part of a composite key: only a key whose one varying part is the
// digest is reported, in Go, Python and TypeScript alike.
//
// # Fix
//
// Use HMAC-SHA256 with a secret read from the environment or a file, over a
// canonical encoding of an explicit field list with a rules version.
//
// # Bad
//
//	func idempotencyKey(o Order) string {
//		sum := sha256.Sum256([]byte(o.ID + ":" + o.Phone))
//		return hex.EncodeToString(sum[:])
//	}
//
// # Good
//
//	func idempotencyKey(secret []byte, o Order) string {
//		mac := hmac.New(sha256.New, secret) // secret from IDEMPOTENCY_HMAC_KEY
//		mac.Write([]byte(o.TenantID + "\x00" + o.ID))
//		return hex.EncodeToString(mac.Sum(nil))
//	}
//
// # Bad (Python)
//
//	def idempotency_key(order):
//	    return hashlib.sha256(f"{order['id']}:{order['phone']}".encode()).hexdigest()
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Good (Python)
//
//	def idempotency_key(order):
//	    mac = hmac.new(SECRET, f"{order['tenant_id']}\x00{order['id']}".encode(), hashlib.sha256)
//	    return mac.hexdigest()
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Bad (TypeScript)
//
//	export async function charge(order: { id: string; phone: string }) {
//	  const key = createHash("sha256").update(`${order.id}:${order.phone}`).digest("hex");
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
//
// # Good (TypeScript)
//
//	export async function charge(order: { tenantId: string; id: string }) {
//	  const key = createHmac("sha256", SECRET).update(`${order.tenantId}\x00${order.id}`).digest("hex");
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
package baredigest
