// An SDK whose idempotency key is an argument by position
// (@a2seven/yoo-checkout's createPayment(payload, idempotenceKey)); Square's
// card on file moves no money, its payment does.
import { randomUUID } from "node:crypto";
import { YooCheckout } from "@a2seven/yoo-checkout";
import { SquareClient } from "square";

const checkout = new YooCheckout({ shopId: process.env.SHOP_ID!, secretKey: process.env.SHOP_SECRET! });
const square = new SquareClient({ token: process.env.SQUARE_TOKEN! });
type Sub = { id: string; price: string; method: string };

// case: sink/positional-key finding
export async function renew(sub: Sub) {
  await checkout.createPayment({ amount: { value: sub.price, currency: "RUB" }, payment_method_id: sub.method, capture: true }, randomUUID()); // want IDEM001
}

// case: sink/positional-key silent
export async function renewForPeriod(sub: Sub, period: string) {
  await checkout.createPayment({ amount: { value: sub.price, currency: "RUB" }, payment_method_id: sub.method, capture: true }, `renew:${sub.id}:${period}`);
}

// case: sink/inert-operation finding
export async function chargeCard(order: { card: string; cents: bigint }) {
  await square.payments.create({ sourceId: order.card, idempotencyKey: randomUUID(), amountMoney: { amount: order.cents, currency: "USD" } }); // want IDEM001
}

// case: sink/inert-operation silent
export async function saveCard(customer: { nonce: string; id: string }) {
  await square.cards.create({ sourceId: customer.nonce, idempotencyKey: randomUUID(), card: { customerId: customer.id } });
}

// case: sink/customer-confirmed silent
export async function bindCard(returnUrl: string) {
  await checkout.createPayment({ amount: { value: "1.00", currency: "RUB" }, capture: false, confirmation: { type: "redirect", return_url: returnUrl } }, randomUUID());
}

// case: sink/customer-confirmed finding
export async function chargeSavedCard(methodId: string) {
  await checkout.createPayment({ amount: { value: "990.00", currency: "RUB" }, capture: true, payment_method_id: methodId, confirmation: { type: "redirect", return_url: "https://shop.example/paid" } }, randomUUID()); // want IDEM001
}
