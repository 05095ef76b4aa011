// A wrapper only order creation goes through: the endpoint its callers
// name creates an order the buyer still has to approve.
import { Worker } from "bullmq";

async function paypalPost(path: string, body: unknown, requestId: string) {
  const r = await fetch(`https://api-m.paypal.com${path}`, {
    method: "POST",
    headers: { "PayPal-Request-Id": requestId },
    body: JSON.stringify(body),
  });
  return r.json();
}

async function openOrder(bookingId: string) {
  // case: sink/wrapper-endpoint silent
  return paypalPost("/v2/checkout/orders", { intent: "CAPTURE" }, `order_${bookingId}_${Date.now()}`);
}

new Worker("paypal-orders", async (job) => {
  await openOrder(job.data.bookingId);
});
