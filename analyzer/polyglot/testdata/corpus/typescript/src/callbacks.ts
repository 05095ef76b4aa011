// A key a caller passes, sent inside a callback this function hands to a
// circuit breaker: the callback runs as part of the call.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

class Breaker {
  async execute<T>(op: () => Promise<T>): Promise<T> {
    return op();
  }
}
const breaker = new Breaker();

export const Payments = {
  taxIntent: async (userId: string, cents: number, stamp: string) =>
    breaker.execute(() =>
      stripe.paymentIntents.create({ amount: cents, currency: "usd" }, { idempotencyKey: `tax_${userId}_${stamp}` }), // want IDEM001
    ),
};

// case: flow/callback-param finding
export async function payTaxNow(user: { id: string }, cents: number) {
  return Payments.taxIntent(user.id, cents, String(Date.now()));
}

// case: flow/callback-param silent
export async function payTaxForPeriod(user: { id: string }, cents: number, period: string) {
  return Payments.taxIntent(user.id, cents, period);
}
