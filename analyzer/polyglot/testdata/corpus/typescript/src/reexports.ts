// Keys made by helpers reached through a barrel file (export * from,
// export { a as b } from) in a module analyzed after this one.
import Stripe from "stripe";
import { randomId, orderKey } from "./zz/ids";
import * as ids from "./zz/ids/index";

const stripe = new Stripe(process.env.STRIPE_KEY!);
type Order = { id: string; cents: number };

// case: source/getRandomValues finding
export async function chargeWithRandomId(order: Order) {
  const transactionId = randomId("txn_");
  await stripe.paymentIntents.create({ amount: order.cents, currency: "usd" }, { idempotencyKey: transactionId }); // want IDEM001
}

// case: source/getRandomValues silent
export async function chargeWithEncodedId(order: Order) {
  await stripe.paymentIntents.create({ amount: order.cents, currency: "usd" }, { idempotencyKey: orderKey("txn_", order.id) });
}

// case: reach/reexport finding
export async function refundWithRandomId(order: Order) {
  await stripe.refunds.create({ payment_intent: order.id }, { idempotencyKey: ids.randomId("rf_") }); // want IDEM001
}

// case: reach/reexport silent
export async function refundWithEncodedId(order: Order) {
  await stripe.refunds.create({ payment_intent: order.id }, { idempotencyKey: ids.encodedId("rf_", order.id) });
}
