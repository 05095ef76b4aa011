import express from "express";
import { handleWebhook, refundOrder } from "./payment.controller";

const router = express.Router();
router.post("/payments/webhook", express.raw({ type: "application/json" }), handleWebhook);
router.post("/payments/:id/refund", refundOrder);

export default router;
