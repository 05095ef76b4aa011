import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: reach/application-export finding
export async function chargeRenewal(customer: string) {
  // The cron route imports the module as a namespace and names this member.
  await stripe.charges.create({ customer, amount: 100, currency: "usd" }); // want IDEM002
}

// case: reach/application-export silent
export async function chargeTrialEnd(customer: string) {
  // The namespace import never names it: no module calls it.
  await stripe.charges.create({ customer, amount: 100, currency: "usd" });
}

// case: reach/application-export silent
export const chargeDunning = async (customer: string) => {
  // An arrow function bound to an exported const, named by no module.
  await stripe.charges.create({ customer, amount: 100, currency: "usd" });
};
