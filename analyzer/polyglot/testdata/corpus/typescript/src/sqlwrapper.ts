// SQL handed to the project's own wrapper of the driver is judged at the
// caller's call, as if it called the driver.
import { query, queryOne } from "./lib/query";

// case: flow/sql-wrapper finding
export async function findLoyaltyTx(key: string) {
  const { rows } = await query("SELECT * FROM loyalty_transactions WHERE idempotency_key = $1 LIMIT 1", [key]); // want IDEM007
  return rows[0];
}

// case: flow/sql-wrapper silent
export async function findScopedLoyaltyTx(customerId: string, key: string) {
  const { rows } = await query("SELECT * FROM loyalty_transactions WHERE customer_id = $1 AND idempotency_key = $2", [customerId, key]);
  return rows[0];
}

// case: flow/sql-wrapper finding
export async function findOrderByKey(key: string) {
  // Through a wrapper of the wrapper.
  return queryOne("SELECT * FROM orders WHERE idempotency_key = $1", [key]); // want IDEM007
}

// case: flow/sql-wrapper finding
export async function chargeNewRow(orderId: string, cents: number) {
  // A row inserted per attempt through the wrapper: its fresh id keys the charge.
  const { rows } = await query("INSERT INTO payments (order_id, cents) VALUES ($1, $2) RETURNING id", [orderId, cents]);
  await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": rows[0].id } }); // want IDEM001
}
