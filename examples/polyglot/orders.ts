// An order API in TypeScript: the Idempotency-Key middleware passes the
// client's key through (silent); the refund route draws its own per request.
import express from "express";
import { randomUUID } from "node:crypto";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);
const app = express();

app.post("/orders", async (req, res) => {
  const key = req.header("Idempotency-Key");
  const pi = await stripe.paymentIntents.create({ amount: req.body.cents, currency: "brl" }, { idempotencyKey: key });
  res.json(pi);
});

app.post("/refunds", async (req, res) => {
  const refund = await stripe.refunds.create({ payment_intent: req.body.pi }, { idempotencyKey: randomUUID() });
  res.json(refund);
});
