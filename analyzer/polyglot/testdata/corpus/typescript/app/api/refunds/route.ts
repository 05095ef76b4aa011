// A Next.js route handler: the file's path routes it.
import Stripe from "stripe";

const stripe = new Stripe("sk_test");

// case: entry/next-route-handler silent
export async function POST(request: Request) {
  const { charge, amount } = await request.json();
  await stripe.refunds.create({ charge, amount });
}

// case: entry/next-route-handler finding
export async function GET() {
  // A GET that moves money is a scheduler's target (Vercel cron), and
  // GET is repeated freely.
  await stripe.payouts.create({ amount: 1000, currency: "eur" }); // want IDEM002
}
