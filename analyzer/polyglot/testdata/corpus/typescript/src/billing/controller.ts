// A route handler registered by reference from another module
// (router.post("/pay", PayController.pay) in routes.ts): nothing
// redelivers its request, so its keyless charge is not reported.
import { Billing } from "./index";

export const pay = async (req: any, res: any) => {
  await Billing.payments.chargeCustomer(req.body.customer, req.body.amount);
  res.json({});
};

export const PayController = { pay };
