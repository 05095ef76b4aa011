// A connector imported through package.json's "imports" (#connectors/*):
// its callers are in view.
import Stripe from "stripe";

class Payments {
  private stripe = new Stripe(process.env.STRIPE_KEY!);

  public charge = async (customer: string, cents: number) =>
    // case: reach/subpath-import silent
    this.stripe.paymentIntents.create({ customer, amount: cents, currency: "usd", confirm: true });

  public payOut = async (account: string, cents: number) =>
    // case: reach/subpath-import finding
    this.stripe.transfers.create({ destination: account, amount: cents, currency: "usd" }); // want IDEM002
}

export const payments = new Payments();
