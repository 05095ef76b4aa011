// A resolver in a file of its own, exported by the name it is bound to.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

const resolver = async (_: unknown, { input }: { input: { cents: number; customer: string } }) =>
  // case: reach/resolver-default-export silent
  stripe.paymentIntents.create({ amount: input.cents, currency: "usd", customer: input.customer, confirm: true });

export default resolver;
