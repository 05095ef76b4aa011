// A Vercel function vercel.json's crons call every day: a run that fails
// after the payout is made runs again with a new SDK key.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/default-export-route finding
export default async function handler(req: unknown, res: { json(v: unknown): void }) {
  const balance = await stripe.balance.retrieve();
  await stripe.transfers.create({ amount: balance.available[0].amount, currency: "usd", destination: "acct_1" }); // want IDEM002
  res.json({ ok: true });
}
