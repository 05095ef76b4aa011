// A Stripe client handed in as a parameter declared of the SDK's type: the
// call on it is the SDK's, whether the caller built the client or not.
import Stripe from "stripe";
import { Ledger } from "./ledger";

function client(): Stripe | null {
  return process.env.STRIPE_KEY ? new Stripe(process.env.STRIPE_KEY) : null;
}

// case: sink/typed-sdk-parameter finding
async function retryTransfer(stripe: Stripe, row: { cents: number; account: string }) {
  await stripe.transfers.create({ amount: row.cents, currency: "usd", destination: row.account }); // want IDEM002
}

// case: sink/typed-sdk-parameter silent
async function retryTransferKeyed(stripe: Stripe, row: { id: string; cents: number; account: string }) {
  await stripe.transfers.create({ amount: row.cents, currency: "usd", destination: row.account }, { idempotencyKey: `transfer-${row.id}` });
}

// case: sink/typed-sdk-parameter silent
async function recordTransfer(ledger: Ledger, row: { cents: number; account: string }) {
  // A project class with a method of the same name: not the SDK.
  await ledger.transfers.create({ amount: row.cents, destination: row.account });
}

export function schedule(ledger: Ledger) {
  return setInterval(async () => {
    const stripe = client();
    if (!stripe) return;
    const row = { id: "t1", cents: 100, account: "acct_1" };
    await retryTransfer(stripe, row);
    await retryTransferKeyed(stripe, row);
    await recordTransfer(ledger, row);
  }, 60_000);
}
