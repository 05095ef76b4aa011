// A BullMQ worker: a job can run again, so its keyless refund is reported.
import { Worker } from "bullmq";
import { Billing } from "./index";

new Worker("refunds", async (job) => {
  await Billing.payments.refundCharge(job.data.charge, job.data.amount);
});
