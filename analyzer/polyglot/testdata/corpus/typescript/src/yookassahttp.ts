// YooKassa's API called with fetch: a payment that asks for the payer's
// confirmation moves no money when it is created; one charged on a saved
// method does.
import { randomUUID } from "crypto";

const base = process.env.YOOKASSA_URL!;

// case: sink/provider-endpoint silent
export async function redirectPayment(cents: number, returnUrl: string) {
  return fetch(`${base}/payments`, {
    method: "POST",
    headers: { "Idempotence-Key": randomUUID() },
    body: JSON.stringify({ amount: { value: cents / 100, currency: "RUB" }, confirmation: { type: "redirect", return_url: returnUrl } }),
  });
}

// case: sink/provider-endpoint finding
export async function chargeSavedMethod(cents: number, methodId: string) {
  return fetch(`${base}/payments`, {
    method: "POST",
    headers: { "Idempotence-Key": randomUUID() }, // want IDEM001
    body: JSON.stringify({ amount: { value: cents / 100, currency: "RUB" }, payment_method_id: methodId }),
  });
}
