// Fallbacks: a per-attempt value drawn only when the key handed in is
// missing. The caller's argument decides; a route's request is the client's.
import { randomUUID } from "crypto";
import express from "express";
import amqp from "amqplib";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const app = express();

// case: fallback/route-or-consumer silent
app.post("/charge", async (req, res) => {
  // A client that sends no key asked for no idempotency.
  const key = (req.headers["idempotency-key"] as string) ?? randomUUID();
  await stripe.paymentIntents.create({ amount: 100, currency: "usd", confirm: true }, { idempotencyKey: key });
  res.json({});
});

app.post("/charge2", async (req, res) => {
  const key = req.header("Idempotency-Key") || `pi-${Date.now()}`;
  await stripe.paymentIntents.create({ amount: 100, currency: "usd", confirm: true }, { idempotencyKey: key });
  res.json({});
});

async function createPayment(amount: number, opts: { idempotencyKey?: string } = {}) {
  const key = opts.idempotencyKey ?? randomUUID();
  return stripe.paymentIntents.create({ amount, currency: "usd", confirm: true }, { idempotencyKey: key });
}

async function chargeWithDefault(amount: number, key?: string) {
  key ??= randomUUID();
  return stripe.paymentIntents.create({ amount, currency: "usd", confirm: true }, { idempotencyKey: key });
}

// case: fallback/caller silent
export async function renew(sub: { id: string; amount: number; periodEnd: string }) {
  await createPayment(sub.amount, { idempotencyKey: `renew-${sub.id}-${sub.periodEnd}` });
  await chargeWithDefault(sub.amount, `renew-${sub.id}-${sub.periodEnd}`);
}

// case: fallback/caller finding
export async function renewAll(subs: { amount: number }[]) {
  for (const sub of subs) {
    await createPayment(sub.amount, {}); // want IDEM001
    await chargeWithDefault(sub.amount); // want IDEM001
  }
}

// case: fallback/route-or-consumer finding
async function onRenewal(msg: amqp.ConsumeMessage) {
  // A message without the key draws a new one per delivery.
  const key = msg.properties.headers?.["x-renewal-key"] ?? randomUUID();
  await stripe.paymentIntents.create({ amount: 100, currency: "usd", confirm: true }, { idempotencyKey: key }); // want IDEM001
}

export async function startRenewals(ch: amqp.Channel) {
  await ch.consume("renewals", onRenewal);
}

async function chargeFor(sub: { amount: number }, key?: string) {
  // Hands its own parameter on: its callers decide.
  await chargeWithDefault(sub.amount, key);
}

// case: fallback/caller silent
export async function chargeStored(sub: { amount: number; renewalKey: string }) {
  await chargeFor(sub, sub.renewalKey);
}

// case: fallback/caller finding
export async function chargeUnkeyed(sub: { amount: number }) {
  await chargeFor(sub); // want IDEM001
}

// case: fallback/caller finding
export async function refund(chargeId: string, key?: string) {
  // No caller in view: whoever calls it may leave the key out.
  await stripe.refunds.create({ charge: chargeId }, { idempotencyKey: key || randomUUID() }); // want IDEM001
}
