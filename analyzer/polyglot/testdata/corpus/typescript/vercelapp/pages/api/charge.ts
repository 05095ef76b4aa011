// Next.js's pages router: the default export of pages/api/charge.ts handles
// requests to /api/charge.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/default-export-route silent
export default async function handler(req: { body: { cents: number } }, res: { json(v: unknown): void }) {
  const intent = await stripe.paymentIntents.create({ amount: req.body.cents, currency: "usd", confirm: true, payment_method: "pm_card_visa" });
  res.json({ id: intent.id });
}
