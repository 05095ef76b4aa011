import { randomUUID } from "crypto";

export function randomKey(orderId: string): string {
  return `${orderId}-${randomUUID()}`;
}

export function intentKey(orderId: string): string {
  return `intent-${orderId}`;
}

export async function sendCharge(orderId: string, key: string) {
  await fetch("https://api.provider.example/c", { method: "POST", body: orderId, headers: { "Idempotency-Key": key } }); // want IDEM001
}
