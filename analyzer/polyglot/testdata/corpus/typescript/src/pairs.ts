// The pairs: a retry loop in a route vs in a consumer; a persisted
// counter vs a per-attempt counter; helpers imported through the @/ alias.
import { randomUUID } from "crypto";
import express from "express";
import amqp from "amqplib";
import { Pool } from "pg";
import { randomKey, intentKey, sendCharge } from "@/lib/keys";

const API = "https://api.provider.example/charges";
const app = express();
const pool = new Pool();

// case: pair/retry-route silent
app.post("/pay", async (req, res) => {
  const key = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
    if (r.ok) return res.sendStatus(200);
  }
  res.sendStatus(502);
});

// case: pair/retry-consumer finding
async function payConsumer(msg: amqp.ConsumeMessage) {
  const key = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
    if (r.ok) return;
  }
}

export async function start(ch: amqp.Channel) {
  await ch.consume("pay", (m) => payConsumer(m!));
  await ch.consume("pay2", payConsumer);
}

// case: pair/persisted-counter silent
export async function persistedCounter(subId: string) {
  // The renewal's cycle, advanced on the row only after the charge went
  // through: every attempt at one cycle reads the same number.
  const { rows } = await pool.query("SELECT cycle, order_id FROM subscriptions WHERE id = $1", [subId]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${rows[0].order_id}-${rows[0].cycle}` } });
  await pool.query("UPDATE subscriptions SET cycle = cycle + 1 WHERE id = $1", [subId]);
}

// case: pair/persisted-counter finding
export async function claimedAttempt(jobId: string) {
  // Each attempt advances the job's counter, then keys the charge on it.
  const { rows } = await pool.query("UPDATE jobs SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts, order_id", [jobId]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${rows[0].order_id}-${rows[0].attempts}` } }); // want IDEM001
}

// case: pair/persisted-counter-orm finding
export async function retryPayout(prisma: any, payoutId: string) {
  // Prisma's atomic increment: the updated row holds the next number.
  const payout = await prisma.payout.update({ where: { id: payoutId }, data: { retryCount: { increment: 1 }, status: "retrying" } });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `payout-${payout.id}-${payout.retryCount}` } }); // want IDEM001
}

// case: pair/persisted-counter-orm finding
export async function retryPayoutReadModifyWrite(prisma: any, payoutId: string) {
  // The row's count plus one, written back: the same advance.
  const payout = await prisma.payout.findUnique({ where: { id: payoutId } });
  const updated = await prisma.payout.update({ where: { id: payoutId }, data: { retryCount: (payout as any).retryCount + 1, lastRetryAt: new Date() } });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `retry_${payoutId}_${(updated as any).retryCount}` } }); // want IDEM001
}

// case: pair/persisted-counter-orm silent
export async function retryPayoutStable(prisma: any, payoutId: string) {
  const payout = await prisma.payout.update({ where: { id: payoutId }, data: { retryCount: { increment: 1 }, status: "retrying" } });
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `payout-${payout.id}` } });
}

// case: pair/persisted-transport-id finding
export async function payRecorded(m: amqp.ConsumeMessage) {
  // Written before acting, but under the transport's id: the message
  // published again brings another id, and finds no row.
  const key = m.properties.messageId;
  await pool.query("insert into payments (idem_key) values ($1) on conflict do nothing", [key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

// case: pair/persisted-random finding
export async function payRecordedFresh(m: amqp.ConsumeMessage) {
  // Written before acting, but drawn by this delivery: the next one draws
  // another key and writes another row.
  const key = randomUUID();
  await pool.query("insert into payments (idem_key) values ($1) on conflict do nothing", [key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

// case: pair/persisted-random silent
app.post("/pay-recorded", async (req, res) => {
  // The row records the request: nothing delivers it again.
  const key = randomUUID();
  await pool.query("insert into payments (idem_key) values ($1)", [key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
  res.sendStatus(200);
});

// case: pair/claimed-intent silent
export async function payClaimedFresh(m: amqp.ConsumeMessage) {
  // Claimed under the order's own id: a redelivery's insert meets the
  // first row and returns nothing.
  const order = JSON.parse(m.content.toString());
  const key = randomUUID();
  const claimed = await pool.query("insert into intents (order_id, idem_key) values ($1, $2) on conflict (order_id) do nothing returning idem_key", [order.id, key]);
  if (claimed.rowCount === 0) return;
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
}

// case: pair/claimed-intent finding
export async function payClaimedByFreshKey(m: amqp.ConsumeMessage) {
  // The conflict is on the fresh reference itself: it never meets a row.
  const order = JSON.parse(m.content.toString());
  const key = randomUUID();
  await pool.query("insert into payments (order_id, provider_ref) values ($1, $2) on conflict (provider_ref) do nothing", [order.id, key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

async function recordThenPay(key: string) {
  await pool.query("insert into payments (idem_key) values ($1) on conflict do nothing", [key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

async function recordThenPayFresh(key: string) {
  await pool.query("insert into payments (idem_key) values ($1) on conflict do nothing", [key]);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

// case: pair/persisted-transport-id finding
export async function payRecordedByHelper(m: amqp.ConsumeMessage) {
  // The helper writes the key before acting: the caller's message id is
  // still the transport's.
  await recordThenPay(m.properties.messageId);
}

// case: pair/persisted-random finding
export async function payRecordedFreshByHelper(m: amqp.ConsumeMessage) {
  await recordThenPayFresh(randomUUID());
}

export async function startRecorded(ch: amqp.Channel) {
  await ch.consume("pay3", payRecorded);
  await ch.consume("pay4", payRecordedFresh);
  await ch.consume("pay5", payRecordedByHelper);
  await ch.consume("pay7", payClaimedFresh);
  await ch.consume("pay8", payClaimedByFreshKey);
  await ch.consume("pay6", payRecordedFreshByHelper);
}

// case: pair/per-attempt-counter finding
export async function localCounter(orderId: string) {
  let attempt = 0;
  while (attempt < 3) {
    attempt++;
    const r = await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${orderId}-${attempt}` } }); // want IDEM001
    if (r.ok) break;
  }
}

// case: pair/item-counter silent
export async function itemCounter(batchId: string, lines: string[]) {
  // Counted over the batch's lines, whatever fails: every attempt numbers
  // them the same.
  let n = 0;
  for (const line of lines) {
    n++;
    switch (line) {
      case "": break;
      default:
        await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${batchId}-${n}` }, body: line });
    }
  }
}

// case: pair/retry-for-counter finding
export async function retryForCounter(orderId: string) {
  for (let i = 0; i < 3; i++) {
    try {
      await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${orderId}-${i}` } }); // want IDEM001
      return;
    } catch {
      continue;
    }
  }
}

// case: pair/retry-for-counter silent
export async function bookFirstAvailable(orderId: string, options: { id: string; url: string }[]) {
  // Each pass books another courier option, in the order a redelivery
  // walks again: the counter numbers the option, not the try.
  for (let i = 0; i < options.length; i += 1) {
    const option = options[i];
    try {
      await fetch(option.url, { method: "POST", headers: { "Idempotency-Key": `${orderId}-${option.id}-a${i + 1}` } });
      return;
    } catch {
      continue;
    }
  }
}

// case: flow/cross-module finding
export async function helperKey(orderId: string) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": randomKey(orderId) } }); // want IDEM001
}

// case: flow/cross-module silent
export async function helperStable(orderId: string) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": intentKey(orderId) } });
}

// case: flow/param-sink finding
export async function throughSender(orderId: string) {
  await sendCharge(orderId, randomUUID());
}

// case: flow/param-sink silent
export async function throughSenderStable(orderId: string) {
  await sendCharge(orderId, `charge-${orderId}`);
}
