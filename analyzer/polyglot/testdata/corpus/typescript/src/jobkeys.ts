// A key generator that switches on the job type: a worker that names its
// type gets only that arm's key.
import { Worker, Job } from "bullmq";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

function jobKey(jobType: string, data: any): string {
  switch (jobType) {
    case "refund-process":
      return `refund-${data.transactionId}`;
    case "send-email":
    case "send-digest":
      // Daily: one a day per template.
      return `email-${data.template}-${new Date().toISOString()}`;
    default:
      return `job-${Date.now()}`;
  }
}

function legacyKey(kind: string, data: any): string {
  if (kind === "payout") {
    return `payout-${data.payoutId}`;
  }
  return `other-${Math.random()}`;
}

// case: cases/switch silent
new Worker("refunds", async (job: Job) => {
  await stripe.refunds.create({ payment_intent: job.data.pi }, { idempotencyKey: jobKey("refund-process", job.data) });
});

// case: cases/switch finding
new Worker("digests", async (job: Job) => {
  await stripe.refunds.create({ payment_intent: job.data.pi }, { idempotencyKey: jobKey("send-digest", job.data) }); // want IDEM001
});

// case: cases/switch finding
new Worker("unknown", async (job: Job) => {
  await stripe.refunds.create({ payment_intent: job.data.pi }, { idempotencyKey: jobKey("chargeback", job.data) }); // want IDEM001
});

// case: cases/if silent
new Worker("payouts", async (job: Job) => {
  await stripe.transfers.create({ amount: job.data.cents, currency: "usd", destination: job.data.acct }, { idempotencyKey: legacyKey("payout", job.data) });
});

// case: cases/if finding
new Worker("others", async (job: Job) => {
  await stripe.transfers.create({ amount: job.data.cents, currency: "usd", destination: job.data.acct }, { idempotencyKey: legacyKey(job.data.kind, job.data) }); // want IDEM001
});
