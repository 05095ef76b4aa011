// An amount made an integer inside a helper (Math.round(amount * 100)) is
// not a float in the key, whatever the caller passed; the same amount put
// in the key as given is.
import Stripe from "stripe";

const stripe = new Stripe("sk_test");

function toCents(amount: number): number {
  return Math.round(amount * 100);
}

// case: flow/integer-conversion silent
export async function refundInCents(charge: string, amount: number) {
  await stripe.refunds.create({ charge, amount: toCents(amount) }, { idempotencyKey: `refund-${toCents(amount)}-${charge}` });
}

// case: flow/integer-conversion finding
export async function refundAsGiven(charge: string, amount: number) {
  await stripe.refunds.create({ charge, amount: toCents(amount) }, { idempotencyKey: `refund-${amount}-${charge}` }); // want IDEM003
}

export async function halve(charge: string, total: number) {
  await refundInCents(charge, total / 2);
  await refundAsGiven(charge, total / 2);
}

// A model built from an object literal keeps each field's own value: its
// generated id is not the float total beside it, while the total is.
import { model } from "mongoose";

const Order = model("Order");

// case: flow/constructed-object-fields silent
export async function chargeOrderById(price: number, userId: string) {
  const order = new Order({ userId, total: price * 1.05 });
  await stripe.paymentIntents.create({ amount: Math.round(order.total * 100), currency: "eur" }, { idempotencyKey: `pi-${order._id}` });
}

// case: flow/constructed-object-fields finding
export async function chargeOrderByTotal(price: number, userId: string) {
  const order = new Order({ userId, total: price * 1.05 });
  await stripe.paymentIntents.create({ amount: Math.round(order.total * 100), currency: "eur" }, { idempotencyKey: `pi-${order._id}-${order.total}` }); // want IDEM003
}
