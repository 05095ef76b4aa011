// A library module of a Next.js application: nothing outside the
// application imports it, and Next.js calls only its route, page and
// middleware files. An export no module imports is dead code.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/application-export silent
export async function payOutLeftover(account: string, cents: number) {
  await stripe.payouts.create({ amount: cents, currency: "usd" }, { stripeAccount: account });
}

// case: reach/application-export finding
export async function payOutWeekly(account: string, cents: number) {
  // The cron route imports it through the barrel (lib/index.ts).
  await stripe.payouts.create({ amount: cents, currency: "usd" }, { stripeAccount: account }); // want IDEM002
}

// case: reach/application-export silent
export async function payOutBonus(account: string, cents: number) {
  // The cron route imports it but never calls or names it.
  await stripe.payouts.create({ amount: cents, currency: "usd" }, { stripeAccount: account });
}
