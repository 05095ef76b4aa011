// The service the worker used before: no module imports it any more.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const log = console;

class LegacyPayoutService {
  // case: reach/unimported-module silent
  async pay(account: string, cents: number) {
    log.info("paying", account);
    return stripe.transfers.create({ amount: cents, currency: "usd", destination: account });
  }
}

export const legacyPayoutService = new LegacyPayoutService();

// case: reach/unimported-module silent
export async function legacyRefund(charge: string) {
  return stripe.refunds.create({ charge });
}
