// A Lambda handler: the deployment runs this file by its path, and no
// module imports it. A file nothing imports is an entry of its own, so its
// exports are called from out of view, not dead.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/application-export finding
export const handler = async (event: { customer: string }) => {
  await stripe.charges.create({ customer: event.customer, amount: 500, currency: "usd" }); // want IDEM002
};
