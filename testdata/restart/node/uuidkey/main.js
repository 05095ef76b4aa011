// A broken payment handler in Node (pg, the stdin protocol): it draws its
// idempotency key inside the attempt, so when the provider's answer is lost
// and the message is redelivered, the second attempt charges again.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const { Client } = require("pg");

async function main() {
  const msg = JSON.parse(fs.readFileSync(0, "utf8"));
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const done = await db.query("select 1 from intents where message_id = $1 and status = 'done'", [msg.message_id]);
    if (done.rowCount > 0) return;
    const key = crypto.randomUUID(); // the bug: a new key every attempt
    const resp = await fetch(`${process.env.PROVIDER_URL}/v1/charges`, {
      method: "POST",
      headers: { "Idempotency-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(msg.payment),
      signal: AbortSignal.timeout(10000),
    });
    if (!resp.ok) throw new Error(`provider answered ${resp.status}`);
    const charge = await resp.json();
    await db.query(
      "insert into intents (message_id, payload, key, status, charge_id) values ($1, '{}', $2, 'done', $3) on conflict do nothing",
      [msg.message_id, key, charge.id],
    );
  } finally {
    await db.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
