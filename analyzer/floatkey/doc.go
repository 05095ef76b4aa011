// Package floatkey defines the analyzer of rule IDEM003, which reports float
// values reaching an idempotency key.
//
// # Analyzer IDEM003
//
// IDEM003: float in an idempotency key
//
// A float32/float64 value reaches key derivation. Floats do not hold money
// exactly: 0.1 + 0.2 is 0.30000000000000004, and two attempts that add the same
// items in a different order, or format with a different precision, produce
// different digits and therefore a different key. The provider sees a new key
// and charges again. A float converted to an integer before it reaches the key
// is fine; floats used for display or logging are not reported.
//
// # Fix
//
// Carry money as integer cents (int64) from the edge of the system and put the
// integer in the key; if a float arrives, round it to cents once, before the key.
//
// # Bad
//
//	func idempotencyKey(o Order) string {
//		return fmt.Sprintf("%s:%.2f", o.ID, o.Total) // Total is a float64
//	}
//
// # Good
//
//	func idempotencyKey(o Order) string {
//		return fmt.Sprintf("%s:%d", o.ID, o.TotalCents) // int64 cents
//	}
//
// # Bad (Python)
//
//	def idempotency_key(order):
//	    return f"{order['id']}:{float(order['total']):.2f}"  # total as a float
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Good (Python)
//
//	def idempotency_key(order):
//	    return f"{order['id']}:{order['total_cents']}"  # integer cents
//
//	def charge(order):
//	    requests.post(API, json=order, headers={"Idempotency-Key": idempotency_key(order)})
//
// # Bad (TypeScript)
//
//	export async function charge(order: { id: string; total: string }) {
//	  const key = `${order.id}:${parseFloat(order.total).toFixed(2)}`; // total as a float
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
//
// # Good (TypeScript)
//
//	export async function charge(order: { id: string; totalCents: number }) {
//	  const key = `${order.id}:${order.totalCents}`; // integer cents
//	  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
//	}
package floatkey
