// An ES module's function it does not export, which its own file never
// calls or hands on, is dead: nothing else can call it. One it exports
// may be called by modules out of view.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/module-private silent
async function leftoverRefund(paymentIntent: string) {
  await stripe.refunds.create({ payment_intent: paymentIntent, amount: 100 });
}

// case: reach/module-private finding
export async function refundFee(paymentIntent: string) {
  await stripe.refunds.create({ payment_intent: paymentIntent, amount: 100 }); // want IDEM002
}

async function refundShipping(paymentIntent: string) {
  // case: reach/module-private finding
  await stripe.refunds.create({ payment_intent: paymentIntent, amount: 250 }); // want IDEM002
}

// Handed on by name: a caller out of view runs it.
export const handlers = { refundShipping };
