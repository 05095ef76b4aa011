// IDEM001 in dead code: a service's method that nothing calls or names
// repeats nothing; the same key in a method a worker runs is reported.
import { randomUUID } from "crypto";
import { Worker } from "bullmq";

class LegacyCharges {
  async chargeOnce(cents: number) {
    // case: reach/dead-key silent
    await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() }, body: JSON.stringify({ cents }) });
  }
}

class RenewalCharges {
  async chargeRenewal(cents: number) {
    // case: reach/dead-key finding
    await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() }, body: JSON.stringify({ cents }) }); // want IDEM001
  }
}

export const legacy = new LegacyCharges();
const renewals = new RenewalCharges();

new Worker("renewals", async (job) => {
  await renewals.chargeRenewal(job.data.cents);
});

// A comment that names a method calls nothing: settleLater is still dead.
// TODO: wire settleLater into the nightly job.
class ArchivedCharges {
  /** settleLater charges what settle() left behind. */
  async settleLater(cents: number) {
    // case: reach/dead-key silent
    await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() }, body: JSON.stringify({ cents }) });
  }
}

export const archived = new ArchivedCharges();
