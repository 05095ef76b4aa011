import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/application-export finding
export async function refundLate(paymentIntent: string) {
  // The cron route loads the module with a dynamic import.
  await stripe.refunds.create({ payment_intent: paymentIntent, amount: 100 }); // want IDEM002
}

// case: reach/application-export silent
export async function refundEarly(paymentIntent: string) {
  // The dynamic import binds refundLate only.
  await stripe.refunds.create({ payment_intent: paymentIntent, amount: 100 });
}
