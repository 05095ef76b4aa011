import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/barrel-registered silent
export const payOut = async (account: string, cents: number) => {
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account });
};

// case: entry/barrel-registered finding
export const payOutLate = async (account: string, cents: number) => {
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
};
