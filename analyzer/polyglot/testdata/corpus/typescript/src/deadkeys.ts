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

// A key a method draws when its caller sends none: decided at the
// callers, and in dead code by nobody.
class TransferClient {
  async request(path: string, key: string) {
    await fetch(`https://api.provider.example${path}`, { method: "POST", headers: { "Idempotency-Key": key } });
  }

  // case: reach/dead-key silent
  async retryLater(id: string, key?: string) {
    await this.request(`/transfers/${id}/retries`, key || `retry-${id}-${Date.now()}`);
  }

  // case: reach/dead-key finding
  async retryNow(id: string, key?: string) {
    await this.request(`/transfers/${id}/retries`, key || `retry-${id}-${Date.now()}`);
  }
}

const transfers = new TransferClient();

new Worker("transfer-retries", async (job) => {
  await transfers.retryNow(job.data.id); // want IDEM001
});
