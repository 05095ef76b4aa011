// An SDK client the constructor stores on the instance
// (this.stripe_ = new Stripe(key)), which the methods then call.
import { randomUUID } from "crypto";
import Stripe from "stripe";

export class Provider {
  private stripe_: Stripe;

  constructor(options: { apiKey: string }) {
    this.stripe_ = new Stripe(options.apiKey);
  }

  // case: sink/instance-field finding
  async refund(id: string, amount: number) {
    await this.stripe_.refunds.create({ payment_intent: id, amount }, { idempotencyKey: randomUUID() }); // want IDEM001
  }

  // case: sink/instance-field silent
  async refundKeyed(id: string, amount: number) {
    await this.stripe_.refunds.create({ payment_intent: id, amount }, { idempotencyKey: `refund-${id}-${amount}` });
  }

  // case: rule/IDEM002 finding
  // case: reach/unmentioned-method finding
  // refundEach below calls it on a receiver of unknown type: its callers
  // are out of view.
  async refundKeyless(id: string, amount: number) {
    await this.stripe_.refunds.create({ payment_intent: id, amount }); // want IDEM002
  }

  // case: reach/unmentioned-method silent
  // No file mentions this method: dead code, which nothing runs again.
  async refundNeverCalled(id: string, amount: number) {
    await this.stripe_.refunds.create({ payment_intent: id, amount });
  }
}

export async function refundEach(provider: any, ids: string[]) {
  for (const id of ids) {
    await provider.refundKeyless(id, 100);
  }
}

// A client class of the project's own that extends the SDK's: its
// instances are Stripe clients.
export class ShopStripeClient extends Stripe {
  constructor(apiKey: string) {
    super(apiKey);
  }
}

function clientFor(apiKey: string): ShopStripeClient {
  return new ShopStripeClient(apiKey);
}

// case: sink/sdk-subclass finding
export async function refundOrder(apiKey: string, intent: string, amount: number) {
  const stripe = clientFor(apiKey);
  return stripe.refunds.create({ payment_intent: intent, amount }); // want IDEM002
}

// case: sink/sdk-subclass silent
export async function refundOrderKeyed(apiKey: string, intent: string, amount: number) {
  const stripe = clientFor(apiKey);
  return stripe.refunds.create({ payment_intent: intent, amount }, { idempotencyKey: `refund-${intent}-${amount}` });
}
