// Controllers as exported arrow functions, one of which receives Stripe's
// webhook: the module that declares them is no webhook receiver, and the
// refund route beside it stays a route.
import type { Request, Response } from "express";
import { PaymentService } from "./payment.service";

export const handleWebhook = async (req: Request, res: Response) => {
  res.status(200).json({ received: true });
  PaymentService.processWebhookEvent(req.body, req.headers["stripe-signature"] as string).catch(() => undefined);
};

export const refundOrder = async (req: Request, res: Response) => {
  await PaymentService.createRefund(req.body.paymentIntent, req.body.cents);
  res.json({ ok: true });
};
