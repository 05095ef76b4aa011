// A client made on first use: the module's variable starts as null and an
// init method assigns the client, so every method that reads it calls
// Stripe. The payout worker runs processVendorPayout per job, and a job
// can run again.
import Stripe from "stripe";

let stripe: Stripe | null = null;

class PayoutService {
  private initializeStripe(): void {
    if (!stripe) {
      stripe = new Stripe(process.env.STRIPE_KEY as string);
    }
  }

  public async processVendorPayout(vendorId: string, amount: number): Promise<string> {
    return this.processStripeTransfer(vendorId, amount);
  }

  private async processStripeTransfer(vendorId: string, amount: number): Promise<string> {
    this.initializeStripe();
    if (!stripe) {
      throw new Error("stripe is not configured");
    }
    // case: sdkwrite/lazy-client finding
    const transfer = await stripe.transfers.create({ amount, currency: "usd", destination: vendorId }); // want IDEM002
    return transfer.id;
  }

  // Private, and nothing in this class calls it: dead code, though another
  // class of the project has a method of the same name that is called.
  private async refundTransfer(transferId: string): Promise<void> {
    this.initializeStripe();
    // case: reach/private-method silent
    await stripe!.transfers.createReversal(transferId, { amount: 100 });
  }
}

// A private method its class calls: reached the way its caller is.
class TransferJob {
  private stripe = new Stripe(process.env.STRIPE_KEY as string);

  public async run(account: string, amount: number): Promise<void> {
    await this.send(account, amount);
  }

  private async send(account: string, amount: number): Promise<void> {
    // case: reach/private-method finding
    await this.stripe.transfers.create({ amount, currency: "usd", destination: account }); // want IDEM002
  }
}

let ledger: Stripe | null = null;

// Declares its own ledger: the module's stays null.
function localLedger(): Stripe {
  let ledger = new Stripe(process.env.STRIPE_KEY as string);
  return ledger;
}

export async function settle(account: string): Promise<void> {
  localLedger();
  // case: sdkwrite/lazy-client silent
  await ledger?.transfers.create({ amount: 1, currency: "usd", destination: account });
}

export const transferJob = new TransferJob();
export default new PayoutService();
