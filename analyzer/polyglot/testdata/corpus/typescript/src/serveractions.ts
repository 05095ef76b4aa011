'use server';
// React server actions: a client's request runs each exported function, as
// it runs a route; nothing redelivers it.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/server-action silent
export async function createBookingIntent(cents: number) {
  const pi = await stripe.paymentIntents.create({ amount: cents, currency: "usd" });
  return pi.client_secret;
}
