// Cloud Functions for Firebase: a callable or HTTPS function answers a
// request, which nothing redelivers; a scheduled, Firestore or task
// trigger is an event the platform delivers at least once and retries.
import * as functions from "firebase-functions";
import { onCall } from "firebase-functions/v2/https";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { onDocumentCreated } from "firebase-functions/v2/firestore";
import * as logger from "firebase-functions/logger";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

// case: entry/firebase silent
export const createSubscription = functions.https.onCall(async (data: { customer: string; price: string }) => {
  // Asked for by the app's user; a keyless create leaves at worst a
  // spare object the user's second click would make too.
  return stripe.subscriptions.create({ customer: data.customer, items: [{ price: data.price }] });
});

// case: entry/firebase silent
export const refundBooking = onCall(async (req) => {
  return stripe.refunds.create({ payment_intent: req.data.paymentIntent, amount: req.data.cents });
});

// case: entry/firebase finding
export const weeklyPayouts = onSchedule("every monday 09:00", async () => {
  await stripe.transfers.create({ amount: 5000, currency: "usd", destination: "acct_1" }); // want IDEM002
});

// case: entry/firebase finding
export const onBookingPaid = functions.firestore.document("bookings/{id}").onCreate(async (snap) => {
  await stripe.transfers.create({ amount: snap.get("cents"), currency: "usd", destination: snap.get("account") }); // want IDEM002
});

// case: entry/firebase finding
export const onRefundRequested = onDocumentCreated("refunds/{id}", async (event) => {
  await stripe.refunds.create({ payment_intent: event.data?.get("paymentIntent"), amount: event.data?.get("cents") }); // want IDEM002
});

// case: sink/log-field silent
export const auditTick = onSchedule("every 5 minutes", async () => {
  // A log line's field leaves as no key.
  logger.info("tick", { idempotencyKey: `tick_${Date.now()}` });
});

// case: sink/log-field finding
export const chargeTick = onSchedule("every 5 minutes", async () => {
  const idempotencyKey = `tick_${Date.now()}`;
  logger.info("charging", { idempotencyKey });
  await stripe.charges.create({ amount: 100, currency: "usd", customer: "cus_1" }, { idempotencyKey }); // want IDEM001
});
