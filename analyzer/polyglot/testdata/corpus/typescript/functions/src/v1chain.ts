// v1's builder chain: a region and runtime options before the trigger.
import * as functions from "firebase-functions/v1";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/firebase silent
export const createPlan = functions
  .region("europe-west1")
  .runWith({ memory: "256MB" })
  .https.onCall(async (data: { customer: string; price: string }) => {
    return stripe.subscriptions.create({ customer: data.customer, items: [{ price: data.price }] });
  });

// case: entry/firebase finding
export const nightlyPayouts = functions
  .region("europe-west1")
  .pubsub.schedule("every day 03:00")
  .onRun(async () => {
    await stripe.payouts.create({ amount: 5000, currency: "eur" }); // want IDEM002
  });
