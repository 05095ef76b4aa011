import express from "express";
import { stripe } from "./stripe";

const app = express();

// case: sdk/type-asserted-client silent
app.post("/portal", async (req, res) => {
  // A portal session moves no money: a repeat leaves a spare session.
  const session = await stripe.billingPortal.sessions.create(
    { customer: req.body.customer },
    { idempotencyKey: `portal:${req.body.customer}:${new Date().toISOString().slice(0, 16)}` },
  );
  res.json({ url: session.url });
});

// case: sdk/type-asserted-client finding
app.post("/charge", async (req, res) => {
  const intent = await stripe.paymentIntents.create(
    { amount: req.body.cents, currency: "usd", confirm: true },
    { idempotencyKey: `charge:${req.body.customer}:${new Date().toISOString().slice(0, 16)}` }, // want IDEM001
  );
  res.json({ id: intent.id });
});
