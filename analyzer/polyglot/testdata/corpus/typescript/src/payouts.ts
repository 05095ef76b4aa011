// PayPal Payouts: sender_batch_id is the batch's dedup id (a batch id used
// in the last 30 days is refused), so a job that draws it per run pays
// again on a retry.
import { Worker } from "bullmq";
import { v4 as uuidv4 } from "uuid";

async function payout(batchId: string, email: string, amount: string) {
  await fetch("https://api-m.paypal.com/v1/payments/payouts", {
    method: "POST",
    body: JSON.stringify({
      sender_batch_header: { sender_batch_id: batchId },
      items: [{ recipient_type: "EMAIL", receiver: email, amount: { value: amount, currency: "USD" } }],
    }),
  });
}

// case: sink/paypal-batch finding
new Worker("payouts", async (job) => {
  await fetch("https://api-m.paypal.com/v1/payments/payouts", {
    method: "POST",
    body: JSON.stringify({
      sender_batch_header: {
        sender_batch_id: uuidv4(), // want IDEM001
      },
      items: [{ recipient_type: "EMAIL", receiver: job.data.email, amount: { value: job.data.amount, currency: "USD" } }],
    }),
  });
});

// case: sink/paypal-batch silent
new Worker("payouts-keyed", async (job) => {
  await payout(`payout-${job.data.payoutId}`, job.data.email, job.data.amount);
});
