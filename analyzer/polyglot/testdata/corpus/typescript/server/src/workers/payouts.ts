import { Worker, Job } from "bullmq";
import { payoutService } from "../services/payouts";

export function startPayoutWorker() {
  return new Worker("payouts", async (job: Job) => {
    await payoutService.pay(job.data.account, job.data.cents);
    await job.data.notifier?.pay?.(job.data.account);
  });
}
