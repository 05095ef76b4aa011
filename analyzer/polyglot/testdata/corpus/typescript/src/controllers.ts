// Controller classes whose methods a decorator routes (NestJS, tsoa,
// routing-controllers).
import { Body, Controller, Get, Post } from "@nestjs/common";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

@Controller("refunds")
export class RefundsController {
  // case: reach/route-decorator silent
  @Post()
  async refund(@Body() body: { charge: string }) {
    // A staff member's request: nothing redelivers it.
    return stripe.refunds.create({ charge: body.charge });
  }

  // case: reach/route-decorator silent
  @Get("/preview")
  async preview(charge: string) {
    return stripe.refunds.create({ charge });
  }

  // case: reach/route-decorator finding
  async refundLater(charge: string) {
    // No route, and no caller in view.
    return stripe.refunds.create({ charge, amount: 500 }); // want IDEM002
  }
}
