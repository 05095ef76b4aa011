import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

export class PaymentService {
  static async processWebhookEvent(payload: Buffer, signature: string) {
    const event = stripe.webhooks.constructEvent(payload, signature, process.env.WHSEC!);
    if (event.type === "charge.dispute.created") {
      const charge = event.data.object as Stripe.Dispute;
      // case: entry/webhook-controller finding
      await stripe.refunds.create({ charge: charge.charge as string, amount: 100 }); // want IDEM002
    }
  }

  static async createRefund(paymentIntent: string, cents: number) {
    // case: entry/webhook-controller silent
    return stripe.refunds.create({ payment_intent: paymentIntent, amount: cents });
  }
}
