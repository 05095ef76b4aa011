// A RabbitMQ consumer in Node (amqplib, pg) that draws its key per
// delivery, the common mistake: it records the charge under a fresh key, so
// the broker's redelivery after a crash, between the provider's charge and
// the ack, asks for a second charge under another key.
"use strict";
const crypto = require("node:crypto");
const amqp = require("amqplib");
const { Client } = require("pg");

async function main() {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const conn = await amqp.connect(process.env.AMQP_URL);
  const ch = await conn.createChannel();
  await ch.prefetch(1);
  await ch.consume(process.env.AMQP_QUEUE, async (delivery) => {
    try {
      const msg = JSON.parse(delivery.content.toString());
      const done = await db.query("select 1 from payments where message_id = $1 and status = 'done'", [msg.message_id]);
      if (done.rowCount === 0) {
        const key = crypto.randomUUID(); // the bug: a new key every delivery
        const resp = await fetch(`${process.env.PROVIDER_URL}/v1/charges`, {
          method: "POST",
          headers: { "Idempotency-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify(msg.payment),
          signal: AbortSignal.timeout(10000),
        });
        if (!resp.ok) throw new Error(`provider answered ${resp.status}`);
        const charge = await resp.json();
        await db.query("insert into payments (idem_key, message_id, status, charge_id) values ($1, $2, 'done', $3)", [
          key,
          msg.message_id,
          charge.id,
        ]);
      }
      ch.ack(delivery);
    } catch (err) {
      // Crash unacknowledged: the broker redelivers to the next consumer.
      console.error(err);
      process.exit(1);
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
