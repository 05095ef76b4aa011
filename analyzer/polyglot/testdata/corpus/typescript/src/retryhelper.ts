// A key drawn once above a retry helper that calls its callback in a
// loop: every try sends the one key. In a service only a route reaches,
// nothing redelivers the request (silent); from a queue worker, a
// redelivery draws another (reported).
import express from "express";
import { Worker } from "bullmq";

async function withRetry<T>(fn: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 0; i < tries; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i === tries - 1) throw err;
    }
  }
  throw new Error("unreachable");
}

class Payments {
  static async openIntent(orderId: string, cents: number) {
    const idempotencyKey = `pi_${orderId}_${Date.now()}`;
    // case: pair/retry-helper silent
    return withRetry(() => fetch("https://api.provider.example/intents", { method: "POST", headers: { "Idempotency-Key": idempotencyKey }, body: JSON.stringify({ cents }) }));
  }

  static async chargeRenewal(subscriptionId: string, cents: number) {
    const idempotencyKey = `renew_${subscriptionId}_${Date.now()}`;
    // case: pair/retry-helper finding
    return withRetry(() => fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": idempotencyKey }, body: JSON.stringify({ cents }) })); // want IDEM001
  }
}

const app = express();
app.post("/orders/:id/pay", async (req, res) => {
  await Payments.openIntent(req.params.id, req.body.cents);
  res.json({ ok: true });
});

new Worker("renewals", async (job) => {
  await Payments.chargeRenewal(job.data.subscriptionId, job.data.cents);
});
