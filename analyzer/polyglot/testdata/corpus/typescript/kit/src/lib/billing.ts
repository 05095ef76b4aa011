// A SvelteKit app: routed by file path ($lib is src/lib), nothing
// registers its handlers.
import Stripe from "stripe";

const stripe = new Stripe("sk_test");

// case: entry/file-route silent
export async function chargeOrder(orderId: string, amount: number, pm: string) {
  // Reached only from the POST handler of a +server.ts: a client's request,
  // which nothing redelivers.
  await stripe.paymentIntents.create({ amount, currency: "eur", payment_method: pm, confirm: true, metadata: { orderId } });
}

// case: entry/file-route finding
export async function payOutGuides(account: string, amount: number) {
  // Reached from a GET handler: the method a scheduler calls, and repeats.
  await stripe.payouts.create({ amount, currency: "eur" }, { stripeAccount: account }); // want IDEM002
}
