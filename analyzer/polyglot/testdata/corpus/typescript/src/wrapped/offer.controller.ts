// Express controllers as class fields wrapped by an error handler
// (purchase = asyncHandler(async (req, res) => {…})): the field is the
// wrapped function, registered as a route through the exported instance.
import { Request, Response } from "express";
import Stripe from "stripe";
import { getRefunds } from "./refunds";
import { asyncHandler } from "./asyncHandler";

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);

class OfferController {
  purchase = asyncHandler(async (req: Request, res: Response) => {
    // case: reach/wrapped-class-field silent
    const intent = await stripe.paymentIntents.create({ amount: req.body.cents, currency: "usd", customer: req.body.customer, confirm: true });
    res.json({ id: intent.id });
  });

  cancel = asyncHandler(async (req: Request, res: Response) => {
    await getRefunds().refundOccurrence(req.params.id, req.body.charge);
    res.json({ ok: true });
  });

  // Handed to a timer, not registered: its callers are out of view.
  settle = asyncHandler(async (req: Request, res: Response) => {
    // case: reach/wrapped-class-field finding
    await stripe.transfers.create({ amount: req.body.cents, currency: "usd", destination: req.body.account }); // want IDEM002
    res.end();
  });
}

export default new OfferController();
