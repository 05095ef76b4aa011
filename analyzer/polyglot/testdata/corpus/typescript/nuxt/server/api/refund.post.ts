// Nuxt's server routes: the default export handles POST /api/refund.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
declare function defineEventHandler<T>(h: (event: { body: { pi: string; cents: number } }) => Promise<T>): unknown;

// case: entry/default-export-route silent
export default defineEventHandler(async (event) => {
  await stripe.refunds.create({ payment_intent: event.body.pi, amount: event.body.cents });
  return { ok: true };
});
