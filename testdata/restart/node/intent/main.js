// A correct payment handler in Node (pg, the stdin protocol): it writes the
// intent first, derives the key from the payload normalized with an HMAC,
// reads the key back, calls the provider with the payload first frozen under
// that key, then records the result.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const { Client } = require("pg");

// canonical is JSON with sorted object keys: the same payment is the same
// text whatever order its fields arrived in.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// cents reads an amount written as 150, 150.0 or "150.00" as whole cents,
// by its digits, not through a float.
function cents(amount) {
  const [whole, frac = ""] = String(amount).trim().split(".");
  if (!/^[0-9]+$/.test(whole) || !/^[0-9]*$/.test(frac)) throw new Error(`bad amount ${amount}`);
  return Number(whole) * 100 + Number((frac + "00").slice(0, 2));
}

// normalized is the payment as the key sees it: the amount in cents, a CPF or
// CNPJ Pix key without punctuation, so the same payment spelled another way
// (123.456.789-09 or 12345678909, 150 or "150.00") is the same key.
function normalized(payment) {
  const out = { ...payment, valor: cents(payment.valor) };
  const chave = payment.chave_pix_destino;
  if (typeof chave === "string" && /^[0-9./ -]+$/.test(chave)) out.chave_pix_destino = chave.replace(/[^0-9]/g, "");
  return out;
}

async function main() {
  const msg = JSON.parse(fs.readFileSync(0, "utf8"));
  const payload = canonical(msg.payment);
  // The key covers the tenant: another tenant's same payment is its own.
  // mutant:tenant-scope
  const scope = { tenant: msg.tenant };
  // mutant> const scope = {}; // the key leaves the tenant out: another tenant's same payment gets this one's key
  // mutant:end
  // mutant:normalize
  const derived = crypto.createHmac("sha256", process.env.IDEMPOTENCY_HMAC_KEY).update(canonical({ ...scope, payment: normalized(msg.payment) })).digest("hex");
  // mutant> const derived = crypto.createHmac("sha256", process.env.IDEMPOTENCY_HMAC_KEY).update(canonical({ ...scope, payment: msg.payment })).digest("hex"); // as spelled
  // mutant:end
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    // mutant:persist-first
    // mutant> await chargeProvider(payload, derived); // the charge goes out before the intent is written or read
    // mutant:end
    // mutant:on-conflict
    await db.query("insert into intents (message_id, payload, key) values ($1, $2, $3) on conflict (message_id) do nothing", [
    // mutant> await db.query("insert into intents (message_id, payload, key) values ($1, $2, $3)", [
    // mutant:end
      msg.message_id,
      payload,
      derived,
    ]);
    const { key } = (await db.query("select key from intents where message_id = $1", [msg.message_id])).rows[0];
    // The same payment re-sent under a new message id has a row of its own:
    // the body is the one first frozen under the key.
    // mutant:frozen-row
    const intent = (await db.query("select key, payload from intents where key = $1 order by seq limit 1", [key])).rows[0];
    // mutant> const intent = { key, payload }; // this delivery's body, not the frozen one
    // mutant:end
    const done = await db.query("select 1 from intents where key = $1 and status = 'done'", [intent.key]);
    if (done.rowCount > 0) return;
    const charge = await chargeProvider(intent.payload, intent.key);
    await db.query("update intents set status = 'done', charge_id = $1 where key = $2", [charge.id, intent.key]);
  } finally {
    await db.end();
  }
}

// chargeProvider calls the provider with the body under the key.
async function chargeProvider(body, key) {
  const resp = await fetch(`${process.env.PROVIDER_URL}/v1/charges`, {
    method: "POST",
    // mutant:provider-key
    headers: { "Idempotency-Key": key, "Content-Type": "application/json" },
    // mutant> headers: { "X-Request-Id": key, "Content-Type": "application/json" }, // the key is not passed on
    // mutant:end
    body,
    signal: AbortSignal.timeout(10000),
  });
  if (!resp.ok) throw new Error(`provider answered ${resp.status}`);
  return resp.json();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
