// The same resolver body, exported the same way, but run by a queue's
// worker: a failed job runs again.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

const handler = async (job: { data: { cents: number; customer: string } }) =>
  // case: reach/resolver-default-export finding
  stripe.paymentIntents.create({ amount: job.data.cents, currency: "usd", customer: job.data.customer, confirm: true }); // want IDEM002

export default handler;
