// A Vercel function: the platform calls its default export for a request
// to /api/refund, and nothing redelivers the request.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/default-export-route silent
export default async function handler(req: { body: { pi: string; cents: number } }, res: { json(v: unknown): void }) {
  await stripe.refunds.create({ payment_intent: req.body.pi, amount: req.body.cents });
  res.json({ ok: true });
}
