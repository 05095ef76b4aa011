// A service written as an object literal with methods, its Stripe client
// made lazily by a getter, called from a BullMQ worker.
import Stripe from "stripe";
import { Worker, Job } from "bullmq";

let client: Stripe | null = null;

function stripeClient(): Stripe {
  if (!client) {
    client = new Stripe("sk_test");
  }
  return client;
}

export const paymentService = {
  // case: sdk/object-method finding
  async createPayment(params: { amount: number; ref: string }) {
    const stripe = stripeClient();
    return stripe.paymentIntents.create({ amount: params.amount, currency: "usd", confirm: true }); // want IDEM002
  },

  // case: sdk/object-method silent
  async createPaymentKeyed(params: { amount: number; ref: string }) {
    const stripe = stripeClient();
    return stripe.paymentIntents.create({ amount: params.amount, currency: "usd" }, { idempotencyKey: `pi-${params.ref}` });
  },

  // case: reach/unmentioned-method silent
  // No file mentions this member: dead code, which nothing runs again.
  async refundUnused(paymentIntent: string) {
    return stripeClient().refunds.create({ payment_intent: paymentIntent });
  },

  // case: reach/unmentioned-method finding
  // Called by name from elsewhere (refundAll), on a path out of view.
  async refundMentioned(paymentIntent: string) {
    return stripeClient().refunds.create({ payment_intent: paymentIntent, amount: 500 }); // want IDEM002
  },
};

export async function refundAll(ids: string[]) {
  for (const id of ids) {
    await paymentService.refundMentioned(id);
  }
}

async function processPayment(job: Job<{ amount: number; ref: string }>): Promise<void> {
  await paymentService.createPayment(job.data);
  await paymentService.createPaymentKeyed(job.data);
}

export function startPaymentWorker() {
  return new Worker("payments", async (job) => processPayment(job), {});
}
