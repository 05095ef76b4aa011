// Bull processors handed through a wrapper, and methods bound as class
// fields.
import Bull, { Job } from "bull";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);
const contributions = new Bull("contributions");

function withMetrics(fn: (job: Job) => Promise<void>) {
  return async (job: Job) => {
    await fn(job);
  };
}

// case: reach/wrapped-callback finding
async function collect(job: Job) {
  await stripe.paymentIntents.create({ amount: job.data.cents, currency: "aud", customer: job.data.customer, confirm: true }); // want IDEM002
}

// case: reach/wrapped-callback silent
async function collectKeyed(job: Job) {
  await stripe.paymentIntents.create({ amount: job.data.cents, currency: "aud", customer: job.data.customer, confirm: true }, { idempotencyKey: `contribution-${job.data.paymentId}` });
}

export function registerProcessors() {
  contributions.process("collect", 1, withMetrics(async (job: Job) => { await collect(job); }));
  contributions.process("collect-keyed", 1, withMetrics(async (job: Job) => { await collectKeyed(job); }));
}

class PayoutQueue {
  private q = new Bull("payouts");
  public constructor(private connector: StripeConnector) {}

  public start = () => {
    this.q.process("payout", 1, this.handlePayout);
  };

  private handlePayout = async (job: Job) => {
    await connector.transfer(job.data.cents, job.data.account);
  };
}

class StripeConnector {
  private api = new Stripe(process.env.STRIPE_SECRET_KEY!);

  // case: reach/class-field finding
  public transfer = async (cents: number, account: string) => {
    return this.api.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
  };

  // case: reach/class-field silent
  public transferKeyed = async (cents: number, account: string, txId: string) => {
    return this.api.transfers.create({ amount: cents, currency: "usd", destination: account }, { idempotencyKey: `payout-${txId}` });
  };

  // case: reach/instance-method finding
  public refund = async (paymentIntent: string) => {
    return this.api.refunds.create({ payment_intent: paymentIntent, amount: 500 }); // want IDEM002
  };

  // case: reach/instance-method silent
  public createIntent = async (cents: number, customer: string) => {
    return this.api.paymentIntents.create({ amount: cents, currency: "usd", customer }); // called only from an HTTP route, through the exported instance
  };
}

export const connector = new StripeConnector();
new PayoutQueue(connector).start();
