// Routes registered on a chain of calls: a tRPC procedure's resolver
// (procedure.input(…).mutation(fn), no path) and an Elysia route
// (new Elysia().post("/refund", fn)). Nothing redelivers their input.
import Stripe from "stripe";
import { initTRPC } from "@trpc/server";
import { Elysia } from "elysia";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const t = initTRPC.create();
const authed = t.procedure;

// case: reach/chained-registration silent
export const billingRouter = t.router({
  subscribe: authed
    .input({ parse: (x: unknown) => x as { customer: string } })
    .mutation(async ({ input }: any) => stripe.subscriptions.create({ customer: input.customer, items: [] })),
});

// case: reach/chained-registration silent
export const refunds = new Elysia({ prefix: "/payments" }).post("/refund", async ({ body }: any) =>
  stripe.refunds.create({ payment_intent: body.paymentIntent }),
);

// case: reach/chained-registration finding
// The same resolver, registered nowhere the engine sees: its callers are out of view.
export const subscribeResolver = async ({ input }: any) =>
  stripe.subscriptions.create({ customer: input.customer, items: [] }); // want IDEM002
