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

// The same Proxy with no assertion of its own: it stands for its target,
// which the assertion inside says is a client.
export const forwarded = new Proxy({} as Stripe, {
  get(_target, prop) {
    return Reflect.get(getClient() as object, prop);
  },
});
