// A request wrapper takes the path: each caller names the endpoint. An
// order the buyer still has to approve moves no money when created; a
// capture does.
import { Worker } from "bullmq";

const PAYPAL = "https://api-m.paypal.com";

async function paypalFetch(path: string, body: unknown, requestId: string) {
  const r = await fetch(`${PAYPAL}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "PayPal-Request-Id": requestId }, // want IDEM001
    body: JSON.stringify(body),
  });
  return r.json();
}

async function createOrder(bookingId: string, cents: number) {
  // case: sink/wrapper-endpoint silent
  return paypalFetch("/v2/checkout/orders", { intent: "CAPTURE", purchase_units: [{ amount: { value: cents } }] }, `order_${bookingId}_${Date.now()}`);
}

async function captureOrder(orderId: string) {
  // case: sink/wrapper-endpoint finding
  return paypalFetch(`/v2/checkout/orders/${orderId}/capture`, {}, `capture_${orderId}_${Date.now()}`);
}

new Worker("paypal", async (job) => {
  if (job.name === "order") await createOrder(job.data.bookingId, job.data.cents);
  else await captureOrder(job.data.orderId);
});
