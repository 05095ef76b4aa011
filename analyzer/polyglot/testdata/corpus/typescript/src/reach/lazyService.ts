// A service made on first use and kept in a module variable: the
// variable holds the instance on the path that makes it as on the one
// that finds it made.
import express from "express";
import cron from "node-cron";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

class LazyRefunds {
  async refundCancelledBooking(paymentIntent: string) {
    // case: reach/lazy-instance silent
    return stripe.refunds.create({ payment_intent: paymentIntent, amount: 500 });
  }

  async refundNightly(paymentIntent: string) {
    // case: reach/lazy-instance finding
    return stripe.refunds.create({ payment_intent: paymentIntent, amount: 500 }); // want IDEM002
  }
}

// Another service's method of the same name: a call of it on an object
// of unknown type could be either's.
export class LedgerRefunds {
  async refundCancelledBooking(paymentIntent: string) {
    return { paymentIntent, recorded: true };
  }
}

let lazyRefunds: LazyRefunds | null = null;

export function getLazyRefunds() {
  if (!lazyRefunds) {
    lazyRefunds = new LazyRefunds();
  }
  return lazyRefunds;
}

const app = express();
app.post("/bookings/:id/cancel", async (req, res) => {
  const refunds = getLazyRefunds();
  await refunds.refundCancelledBooking(req.body.paymentIntent);
  res.sendStatus(200);
});

cron.schedule("0 3 * * *", async () => {
  const refunds = getLazyRefunds();
  await refunds.refundNightly("pi_nightly");
});
