import { Worker } from "bullmq";
import PayoutService, { settle, transferJob } from "./payout.service";
import { refundTransfer } from "./refunds";

const enabled = process.env.QUEUES === "1";

export const payoutWorker = enabled
  ? new Worker("payout", async (job) => {
      await PayoutService.processVendorPayout(job.data.vendorId, job.data.amount);
      await refundTransfer(job.data.transferId);
      await transferJob.run(job.data.vendorId, job.data.amount);
      await settle(job.data.vendorId);
    })
  : null;
