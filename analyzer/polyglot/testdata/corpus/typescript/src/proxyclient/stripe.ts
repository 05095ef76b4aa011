// A lazily made client behind a Proxy typed as the SDK's class: what the
// assertion says it is, it is.
import Stripe from "stripe";

let client: Stripe | null = null;

function getClient(): Stripe {
  client ??= new Stripe(process.env.STRIPE_KEY!);
  return client;
}

export const stripe = new Proxy({} as Stripe, {
  get(_target, prop) {
    return Reflect.get(getClient() as object, prop);
  },
}) as Stripe;
