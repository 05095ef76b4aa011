// Named re-exports: the barrel (lib/index.ts) passes on both functions,
// and only the one a module imports from the barrel has a caller.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/application-export silent
export async function transferFeeLeftover(account: string, cents: number) {
  // Re-exported by name, and imported from the barrel by no module.
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account });
}

// case: reach/application-export finding
export async function transferFeeMonthly(account: string, cents: number) {
  // The cron route imports it from the barrel under another name.
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
}
