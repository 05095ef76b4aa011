import { Worker } from "bullmq";
import express from "express";
import { forwarded, stripe } from "./stripe";

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

// case: sdk/type-asserted-client finding
new Worker("payouts", async (job) => {
  // A keyless transfer on a redelivered job: the client behind the Proxy is
  // the SDK's, so the transfer is a money-moving create.
  await forwarded.transfers.create({ amount: job.data.cents, currency: "usd", destination: job.data.account }); // want IDEM002
});

// case: sdk/type-asserted-client silent
new Worker("payouts-keyed", async (job) => {
  await forwarded.transfers.create(
    { amount: job.data.cents, currency: "usd", destination: job.data.account },
    { idempotencyKey: `payout:${job.data.payoutId}` },
  );
});

// case: sdk/unconfirmed-intent finding
new Worker("renewals", async (job) => {
  await forwarded.paymentIntents.create({ customer: job.data.customer, amount: job.data.cents, currency: "usd", confirm: true, off_session: true }); // want IDEM002
});

// case: sdk/unconfirmed-intent silent
new Worker("intents", async (job) => {
  // Confirmed by the customer in the browser: a repeat leaves an orphan
  // intent and charges nothing.
  await forwarded.paymentIntents.create({ customer: job.data.customer, amount: job.data.cents, currency: "usd" });
});
