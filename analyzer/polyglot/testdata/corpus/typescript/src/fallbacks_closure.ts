// A fallback used inside a closure of the function that draws it (a retry
// wrapper): decided as that function's.
import { v4 as uuidv4 } from "uuid";
import Stripe from "stripe";
import fastify from "fastify";
import { retry } from "./lib/retry";

const stripe = new Stripe(process.env.STRIPE_KEY!);

export class RefundController {
  async createRefund(request: { idempotencyKey?: string; body: { pi: string } }) {
    const idempotencyKey = (request as any).idempotencyKey || uuidv4();
    return retry(() => stripe.refunds.create({ payment_intent: request.body.pi }, { idempotencyKey }));
  }
}

export const refundController = new RefundController();
const app = fastify();

// case: fallback/closure silent
app.post("/refunds", async (request: any) => {
  return refundController.createRefund(request);
});

// case: fallback/closure finding
export async function refundLater(pi: string, key?: string) {
  // No caller in view: whoever calls it may leave the key out.
  const k = key ?? uuidv4();
  return retry(() => stripe.refunds.create({ payment_intent: pi }, { idempotencyKey: k })); // want IDEM001
}
