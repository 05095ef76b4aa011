// Arguments spread from a list: each parameter gets its element, so a
// clock value in a position the key function ignores builds no key.
import Stripe from "stripe";
import { Worker, Job } from "bullmq";

const stripe = new Stripe(process.env.STRIPE_KEY!);

class CheckoutKeys {
  checkoutKey(tenant: string, email: string, _timestamp?: number): string {
    return `checkout-${tenant}-${email}`;
  }
}
const checkoutKeys = new CheckoutKeys();

class ChargeFactory {
  async charge(params: { cents: number; parts: [string, string, number] }) {
    const { parts } = params;
    const key = checkoutKeys.checkoutKey(...parts);
    return stripe.paymentIntents.create({ amount: params.cents, currency: "usd", confirm: true }, { idempotencyKey: key }); // want IDEM001
  }
}
const chargeFactory = new ChargeFactory();

// case: flow/spread-arguments silent
new Worker("spread-direct", async (job: Job) => {
  const key = checkoutKeys.checkoutKey(...[job.data.tenant, job.data.email, Date.now()]);
  await stripe.paymentIntents.create({ amount: job.data.cents, currency: "usd", confirm: true }, { idempotencyKey: key });
});

// case: flow/spread-arguments silent
new Worker("spread-factory", async (job: Job) => {
  await chargeFactory.charge({ cents: job.data.cents, parts: [job.data.tenant, job.data.email, Date.now()] });
});

// case: flow/spread-arguments finding
new Worker("spread-clock-first", async (job: Job) => {
  await chargeFactory.charge({ cents: job.data.cents, parts: [`${Date.now()}`, job.data.email, 0] });
});
