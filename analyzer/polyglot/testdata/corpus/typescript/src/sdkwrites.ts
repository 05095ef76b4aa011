// IDEM002: a Stripe call that moves money without an idempotency key, on
// a path that can run it again (a consumer, a webhook, a QStash job,
// callers out of view), vs the same call with a key, one that moves no
// money, or one only an HTTP route reaches.
import express from "express";
import amqp from "amqplib";
import Stripe from "stripe";
import { createHmac } from "crypto";
import { verifySignatureAppRouter } from "@upstash/qstash/nextjs";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const app = express();

// case: rule/IDEM002 finding
async function onRefund(msg: amqp.ConsumeMessage) {
  const { chargeId, cents } = JSON.parse(msg.content.toString());
  await stripe.refunds.create({ charge: chargeId, amount: cents }); // want IDEM002
}

// case: rule/IDEM002 silent
async function onRefundKeyed(msg: amqp.ConsumeMessage) {
  const { chargeId, cents, intentKey } = JSON.parse(msg.content.toString());
  await stripe.refunds.create({ charge: chargeId, amount: cents }, { idempotencyKey: `refund-${intentKey}` });
}

export async function consume(ch: amqp.Channel) {
  await ch.consume("refunds", (m) => onRefund(m!));
  await ch.consume("refunds-keyed", (m) => onRefundKeyed(m!));
}

// case: rule/IDEM002 finding
export async function payOut(account: string, cents: number) {
  // Nothing here calls it: its callers are out of view.
  return stripe.payouts.create({ amount: cents, currency: "brl" }, { stripeAccount: account }); // want IDEM002
}

// case: rule/IDEM002 finding
app.post("/stripe/webhook", async (req, res) => {
  // The route verifies Stripe's signature: Stripe retries it until 2xx.
  const event = stripe.webhooks.constructEvent(req.body, req.headers["stripe-signature"] as string, "whsec");
  await stripe.refunds.create({ payment_intent: (event.data.object as { id: string }).id, amount: 500 }); // want IDEM002
  await stripe.invoices.pay((event.data.object as { id: string }).id); // a paid invoice is not paid again
  res.sendStatus(200);
});

// case: rule/IDEM002 finding
async function withdraw(req: Request) {
  const { account, cents } = await req.json();
  await stripe.transfers.create({ amount: cents, currency: "brl", destination: account }); // want IDEM002
  return new Response("ok");
}
// QStash calls the job, and retries it until it answers 2xx.
export const POST = verifySignatureAppRouter(withdraw);

async function chargeCard(cents: number) {
  await stripe.paymentIntents.create({ amount: cents, currency: "brl", confirm: true });
}

// case: rule/IDEM002 silent
app.post("/checkout", async (req, res) => {
  // Only a route reaches it: nothing redelivers the request.
  await chargeCard(req.body.cents);
  res.sendStatus(201);
});

// case: rule/IDEM002 silent
export async function signUp(email: string) {
  await stripe.customers.create({ email }); // moves no money: a repeat leaves a spare customer
}

// case: rule/IDEM002 silent
export async function chargeWithOptions(cents: number, options: Stripe.RequestOptions) {
  await stripe.charges.create({ amount: cents, currency: "brl" }, options); // options handed in
}

// case: rule/IDEM002 finding
class StripeService {
  // Called through the instance below from code out of view.
  async refund(chargeId: string, cents: number) {
    return stripe.refunds.create({ charge: chargeId, amount: cents }); // want IDEM002
  }
}
export const stripeService = new StripeService();

// The key is the caller's to give.
async function createCharge({ customer, cents, idempotencyKey }: { customer: string; cents: number; idempotencyKey?: string }) {
  return stripe.paymentIntents.create({ customer, amount: cents, currency: "brl", confirm: true }, idempotencyKey ? { idempotencyKey } : undefined);
}

// case: rule/IDEM002 finding
async function onFailureFee(msg: amqp.ConsumeMessage) {
  const { customer } = JSON.parse(msg.content.toString());
  await createCharge({ customer, cents: 500 }); // want IDEM002
}

// case: rule/IDEM002 silent
async function onFailureFeeKeyed(msg: amqp.ConsumeMessage) {
  const { customer, invoiceId } = JSON.parse(msg.content.toString());
  await createCharge({ customer, cents: 500, idempotencyKey: `fee-${invoiceId}` });
}

export async function consumeFees(ch: amqp.Channel) {
  await ch.consume("fees", (m) => onFailureFee(m!));
  await ch.consume("fees-keyed", (m) => onFailureFeeKeyed(m!));
}

// The key is computed from the parameters: it exists whatever the caller
// passes.
async function transferFor({ partnerId, invoiceId }: { partnerId: string; invoiceId?: string }) {
  const idempotencyKey = createHmac("sha256", process.env.IDEMPOTENCY_HMAC_KEY!).update(`invoice:${invoiceId}`).digest("hex");
  return stripe.transfers.create({ amount: 100, currency: "brl", destination: partnerId }, { idempotencyKey });
}

// case: rule/IDEM002 silent
async function onForcedWithdrawal(msg: amqp.ConsumeMessage) {
  const { partnerId } = JSON.parse(msg.content.toString());
  await transferFor({ partnerId });
}

export async function consumeWithdrawals(ch: amqp.Channel) {
  await ch.consume("withdrawals", (m) => onForcedWithdrawal(m!));
}

// A refund without an amount refunds what remains: a repeat finds nothing
// left and is refused. One with an amount refunds it again.
import { Worker as RefundWorker } from "bullmq";

// case: sdk/refund-remainder silent
async function refundRemainder(pi: string) {
  await stripe.refunds.create({ payment_intent: pi, reason: "duplicate" });
}

// case: sdk/refund-remainder finding
async function refundPart(pi: string, amount: number) {
  await stripe.refunds.create({ payment_intent: pi, amount }); // want IDEM002
}

new RefundWorker("refunds", async (job) => {
  await refundRemainder(job.data.pi);
  await refundPart(job.data.pi, job.data.amount);
});

function verifiedEvent(req: express.Request): Stripe.Event {
  return stripe.webhooks.constructEvent(req.body, req.headers["stripe-signature"] as string, process.env.WHSEC!);
}

// case: entry/webhook-verified-in-helper finding
app.post("/billing/webhook", async (req, res) => {
  // The signature is checked in a helper: the route still receives
  // Stripe's webhook, which Stripe retries until it answers 2xx.
  const event = verifiedEvent(req);
  const intent = event.data.object as Stripe.PaymentIntent;
  await stripe.refunds.create({ payment_intent: intent.id, amount: 300 }); // want IDEM002
  res.sendStatus(200);
});

function parsedOrder(req: express.Request): { intentId: string } {
  return JSON.parse(req.body.toString());
}

// case: entry/webhook-verified-in-helper silent
app.post("/billing/refund", async (req, res) => {
  // A helper that only parses the request: a plain route, not a webhook.
  const order = parsedOrder(req);
  await stripe.refunds.create({ payment_intent: order.intentId, amount: 300 });
  res.sendStatus(200);
});
