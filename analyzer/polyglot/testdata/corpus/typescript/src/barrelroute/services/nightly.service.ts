import { payOutLate } from "../payout";

// Handed to a queue worker through the barrel.
export const nightlyPayout = async (job: { data: { account: string; cents: number } }) => {
  await payOutLate(job.data.account, job.data.cents);
};
