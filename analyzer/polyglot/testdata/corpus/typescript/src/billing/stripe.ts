// Stripe calls without a key, gathered in a service object
// (export const Billing = { payments }) that the other modules call.
import Stripe from "stripe";

const stripeClient = new Stripe("sk_test");

// case: entry/registered-by-reference finding
export const refundCharge = async (charge: string, amount: number) => {
  return stripeClient.refunds.create({ charge, amount }); // want IDEM002
};

// case: entry/registered-by-reference silent
export const chargeCustomer = async (customer: string, amount: number) => {
  return stripeClient.paymentIntents.create({ customer, amount, currency: "brl", confirm: true });
};
