// Scheduled jobs: the next tick does again what a crashed one left half
// done, so a keyless transfer there is reported; the same call run once
// at start-up by the server's top level is not.
import cron from "node-cron";
import { CronJob } from "cron";
import schedule from "node-schedule";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);

async function sweepPayouts(account: string, cents: number) {
  // case: entry/scheduled finding
  await stripe.transfers.create({ amount: cents, currency: "usd", destination: account }); // want IDEM002
}

async function nightlyRefunds(charge: string) {
  // case: entry/scheduled finding
  await stripe.refunds.create({ charge, amount: 500 }); // want IDEM002
}

async function renewals(customer: string) {
  // case: entry/scheduled finding
  await stripe.invoices.create({ customer }); // want IDEM002
}

async function tickTransfers(account: string) {
  // case: entry/scheduled finding
  await stripe.transfers.create({ amount: 1, currency: "usd", destination: account }); // want IDEM002
}

async function warmUp(account: string) {
  // case: entry/scheduled silent
  await stripe.transfers.create({ amount: 1, currency: "usd", destination: account });
}

export function startJobs() {
  cron.schedule("0 * * * *", async () => {
    await sweepPayouts("acct_1", 100);
  });
  new CronJob("0 0 * * *", () => nightlyRefunds("ch_1")).start();
  schedule.scheduleJob("0 6 * * *", () => renewals("cus_1"));
  setInterval(() => tickTransfers("acct_2"), 60_000);
}

// Run once by the server's top level: nothing runs it again.
warmUp("acct_3");
startJobs();
