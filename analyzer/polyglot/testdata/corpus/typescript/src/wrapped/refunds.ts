// A service a factory hands out: getRefunds().refundOccurrence(…) names
// no instance, but no other function of the project is called
// refundOccurrence, so the route's call is its caller.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);

class Refunds {
  async refundOccurrence(id: string, charge: string): Promise<void> {
    // case: reach/factory-method silent
    await stripe.refunds.create({ charge, metadata: { occurrence: id } });
  }

  async refundLate(charge: string): Promise<void> {
    // case: reach/factory-method finding
    await stripe.refunds.create({ charge, amount: 500 }); // want IDEM002
  }
}

const registry = new Map<string, unknown>([["refunds", new Refunds()]]);

// The implementation is looked up at run time: the call's receiver has no
// type here.
export function getRefunds(): any {
  return registry.get(process.env.REFUNDS_IMPL || "refunds");
}
