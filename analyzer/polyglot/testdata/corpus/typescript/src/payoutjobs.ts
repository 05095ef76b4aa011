// The same call in a module without 'use server': its callers are out of
// view.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/server-action finding
export async function createPayoutIntent(cents: number) {
  const pi = await stripe.paymentIntents.create({ amount: cents, currency: "usd", confirm: true }); // want IDEM002
  return pi.client_secret;
}
