import express from "express";
import { Worker } from "bullmq";
import offers from "./offer.controller";
import { getRefunds } from "./refunds";

const router = express.Router();
router.post("/offers/:id/purchase", offers.purchase);
router.post("/offers/:id/cancel", offers.cancel);

setInterval(() => offers.settle({} as never, {} as never), 60_000);

new Worker("late-refunds", async (job) => {
  await getRefunds().refundLate(job.data.charge);
});

export default router;
