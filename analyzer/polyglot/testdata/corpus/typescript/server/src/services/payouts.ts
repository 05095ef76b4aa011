import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const log = console;

class PayoutService {
  // case: reach/unimported-module finding
  async pay(account: string, cents: number) {
    log.info("paying", account);
    return stripe.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
  }
}

export const payoutService = new PayoutService();
