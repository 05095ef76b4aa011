// ESM JavaScript.
import { nanoid } from "nanoid";

// case: module/esm finding
export async function charge(order) {
  await fetch("https://api.provider.example/c", { method: "POST", headers: { "Idempotency-Key": nanoid() } }); // want IDEM001
}

// case: module/esm silent
export async function chargeStable(order) {
  await fetch("https://api.provider.example/c", { method: "POST", headers: { "Idempotency-Key": `o-${order.id}` } });
}
