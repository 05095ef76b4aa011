// Package wholepayload defines the analyzer of rule IDEM004, which reports
// whole structs or maps serialized into an idempotency key.
//
// # Analyzer IDEM004
//
// IDEM004: whole payload in an idempotency key
//
// A whole struct or map is serialized (json.Marshal, fmt %v/%+v) into the key.
// The key then depends on every field the type has today and every field it
// will gain: add an updated_at, a trace id or a retry counter to the message and
// every key changes, so redeliveries and old intents no longer match.
//
// # Fix
//
// Serialize an explicit field list with a rules version: a composite literal
// written where the key is built, or a struct type made only for the key (named
// like keyInput or KeyFields).
//
// # Bad
//
//	func idempotencyKey(secret []byte, o Order) string {
//		b, _ := json.Marshal(o) // every field of Order, now and later
//		mac := hmac.New(sha256.New, secret)
//		mac.Write(b)
//		return hex.EncodeToString(mac.Sum(nil))
//	}
//
// # Good
//
//	func idempotencyKey(secret []byte, o Order) string {
//		b, _ := json.Marshal(struct {
//			V       int    `json:"v"`
//			OrderID string `json:"order_id"`
//			Cents   int64  `json:"cents"`
//		}{1, o.ID, o.Cents})
//		mac := hmac.New(sha256.New, secret)
//		mac.Write(b)
//		return hex.EncodeToString(mac.Sum(nil))
//	}
//
// # Bad (Python)
//
//	def idempotency_key(order):
//	    mac = hmac.new(SECRET, json.dumps(order).encode(), hashlib.sha256)  # every field, now and later
//	    return mac.hexdigest()
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Good (Python)
//
//	def idempotency_key(order):
//	    fields = {"v": 1, "order_id": order["id"], "cents": order["cents"]}
//	    mac = hmac.new(SECRET, json.dumps(fields).encode(), hashlib.sha256)
//	    return mac.hexdigest()
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Bad (TypeScript)
//
//	export async function charge(order: Record<string, unknown>) {
//	  const key = createHmac("sha256", SECRET).update(JSON.stringify(order)).digest("hex"); // every field
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
//
// # Good (TypeScript)
//
//	export async function charge(order: { id: string; cents: number }) {
//	  const fields = { v: 1, orderId: order.id, cents: order.cents };
//	  const key = createHmac("sha256", SECRET).update(JSON.stringify(fields)).digest("hex");
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
package wholepayload
