// Shared code of Supabase edge functions (_shared is the service's own,
// not a hidden directory), importing the SDK through esm.sh as Deno does.
import Stripe from "https://esm.sh/stripe@14.21.0?target=deno";

const stripe = new Stripe(Deno.env.get("STRIPE_KEY")!);

export async function payOut(account: string, cents: number) {
  // case: entry/supabase-scheduled finding
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
}

export async function refundNow(charge: string) {
  // case: entry/supabase-scheduled silent
  await stripe.refunds.create({ charge, amount: 100 });
}

export async function holdCard(customer: string, card: string, reference: string) {
  // case: walk/underscore-dir finding
  await fetch("https://api.mercadopago.com/v1/payments", {
    method: "POST",
    headers: { "X-Idempotency-Key": `renewal-${reference}-${Date.now()}` }, // want IDEM001
    body: JSON.stringify({ payer: { id: customer }, card_id: card }),
  });
}
