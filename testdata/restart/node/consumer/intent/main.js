// A correct RabbitMQ consumer in Node (amqplib, pg): it freezes the
// payment's intent (tenant, action, the payment's fields normalized),
// derives the key from it with an HMAC, records it (insert … on conflict do
// nothing) and reads its status back before charging, and acks by hand
// after the charge is recorded. Every delivery of the message, a broker's
// redelivery after a crash or the same payment published again under a new
// message id or spelled another way, asks for the same charge with the
// same body.
"use strict";
const crypto = require("node:crypto");
const amqp = require("amqplib");
const { Client } = require("pg");

// intentKey is derived from what the message asks for, field by field and
// versioned, not from how it arrived: the same on every delivery.
function intentKey(msg, p) {
  // mutant:tenant-scope
  const tenant = msg.tenant;
  // mutant> const tenant = ""; // the key leaves the tenant out: another tenant's same payment gets this one's key
  // mutant:end
  const intent = ["v1", tenant, "pix.cobranca", p.cliente_id, p.valor, p.chave_pix_destino, p.referencia_intencao].join("\x00");
  return crypto.createHmac("sha256", process.env.IDEMPOTENCY_HMAC_KEY).update(intent).digest("hex");
}

async function charge(key, payment) {
  const resp = await fetch(`${process.env.PROVIDER_URL}/v1/charges`, {
    method: "POST",
    headers: {
      // mutant:provider-key
      "Idempotency-Key": key,
      // mutant:end
      "Content-Type": "application/json",
    },
    body: JSON.stringify(payment),
    signal: AbortSignal.timeout(10000),
  });
  if (!resp.ok) throw new Error(`provider answered ${resp.status}`);
  return (await resp.json()).id;
}

// normalized is the payment as one spelling: the amount as a decimal with
// two places, a CPF or CNPJ Pix key without punctuation, so the same
// payment written another way (123.456.789-09 or 12345678909, 150 or
// "150.00") is the same key and the same body.
function normalized(payment) {
  const out = { ...payment, valor: Number(payment.valor).toFixed(2) };
  const chave = payment.chave_pix_destino;
  if (typeof chave === "string" && /^[0-9./ -]+$/.test(chave)) out.chave_pix_destino = chave.replace(/[^0-9]/g, "");
  // Members in one order, so the body sent is the same bytes too.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function pay(db, msg) {
  // mutant:normalize
  const payment = normalized(msg.payment);
  // mutant> const payment = msg.payment; // as spelled
  // mutant:end
  const key = intentKey(msg, payment);
  let record = "insert into payments (idem_key, message_id, status) values ($1, $2, 'started')";
  // mutant:on-conflict
  record += " on conflict (idem_key) do nothing";
  // mutant:end
  await db.query(record, [key, msg.message_id]);
  const { rows } = await db.query("select status from payments where idem_key = $1", [key]);
  if (rows[0].status === "done") return;
  const chargeId = await charge(key, payment);
  await db.query("update payments set status = 'done', charge_id = $2, updated_at = now() where idem_key = $1", [key, chargeId]);
}

async function main() {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const conn = await amqp.connect(process.env.AMQP_URL);
  const ch = await conn.createChannel();
  await ch.prefetch(1);
  await ch.consume(process.env.AMQP_QUEUE, async (delivery) => {
    try {
      await pay(db, JSON.parse(delivery.content.toString()));
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
