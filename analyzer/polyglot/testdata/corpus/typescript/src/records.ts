// A record a provider or database wrote and returned: its id is the
// provider's, not made of the request (silent); a value a library builds
// from its arguments keeps their taint (finding).
import { PrismaClient } from "@prisma/client";
import Stripe from "stripe";
import slugify from "slugify";
import { billing } from "@acme/billing-client";
import { db } from "@/lib/db";

const prisma = new PrismaClient();
const stripe = new Stripe(process.env.STRIPE_KEY!);
const API = "https://api.provider.example/notify";

// case: flow/call-result silent
export async function markPaid(id: string) {
  const invoice = await prisma.invoice.update({ where: { id }, data: { paidAt: new Date() } });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `paid-${invoice.id}` } });
  const payout = await stripe.payouts.create({ amount: 100, currency: "usd", description: `withdrawal ${new Date()}` }); // want IDEM002
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `payout-${payout.id}` } });
  const charge = await billing.charges.create({ amount: 100, requestedAt: new Date() });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `charge-${charge.id}` } });
}

// case: flow/call-result silent
export async function markPaidThroughCachedClient(id: string) {
  const invoice = await db.invoice.update({ where: { id }, data: { paidAt: new Date() } });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `paid-${invoice.id}` } });
}

// case: flow/call-result finding
export async function markPaidSlug(id: string) {
  const tag = slugify(`paid-${id}-${new Date().toISOString()}`);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": tag } }); // want IDEM001
}
