import type { RequestHandler } from "express";
import { payOut } from "../payout";

// Registered as a route through the barrel (services/index.ts).
export const approveWithdrawal: RequestHandler = async (req, res) => {
  await payOut(req.body.account, req.body.cents);
  res.json({ ok: true });
};
