// The Express API of ../right without the request fingerprint check (the
// design of testdata/restart/api/nofingerprint): the same key with another
// body is answered with the stored response of the first, so a client's
// changed request silently never happens. Its keys hold, per client, across
// crashes; restart-test --client-key fails it at mismatch-rejected.
//
//	node main.js 127.0.0.1:8089
"use strict";
const crypto = require("node:crypto");
const express = require("express");
const { Client } = require("pg");

const app = express();

app.post("/v1/orders", express.raw({ type: () => true }), async (req, res) => {
  const client = req.get("Authorization") ?? "";
  const key = req.get("Idempotency-Key");
  if (!key) return reply(res, 400, '{"error":"Idempotency-Key header required"}');
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  // One connection for the whole request: its backend pid is the lock, and
  // it dies with the server.
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  try {
    await db.connect();
    const fp = fingerprint(body);
    const stored = await claim(db, client, key, fp);
    // The stored fingerprint is never compared: another body under the same
    // key gets this one's answer.
    if (stored && stored.status === "done") return reply(res, stored.response_status, stored.response_body);
    if (stored) {
      res.set("Retry-After", "1");
      return reply(res, 409, '{"error":"a request with this Idempotency-Key is in progress"}');
    }
    const [status, out] = await placeOrder(db, client, key, body);
    return reply(res, status, out);
  } catch (err) {
    console.error(err);
    return reply(res, 503, '{"error":"database unavailable"}');
  } finally {
    await db.end().catch(() => {});
  }
});

// claim inserts the key as processing, or takes over a processing key whose
// lock holder is gone (its server crashed). It returns null when this
// request now drives the key, and otherwise what is stored for it.
async function claim(db, client, key, fp) {
  const claimed = await db.query(
    `insert into idempotency_keys (client_id, key, fingerprint, status, locked_by, locked_until)
values ($1, $2, $3, 'processing', pg_backend_pid(), now() + interval '30 seconds')
on conflict (client_id, key) do update
  set locked_by = pg_backend_pid(), locked_until = excluded.locked_until
  where idempotency_keys.status = 'processing'
    and (idempotency_keys.locked_until < now()
         or not exists (select 1 from pg_stat_activity where pid = idempotency_keys.locked_by))
returning status`,
    [client, key, fp],
  );
  if (claimed.rowCount > 0) return null;
  const { rows } = await db.query(
    "select status, fingerprint, response_status, response_body from idempotency_keys where client_id = $1 and key = $2",
    [client, key],
  );
  return rows[0];
}

// placeOrder charges under a key derived from (client, key), so a takeover
// after a crash is replayed by the provider, then writes the order and
// completes the key in one transaction.
async function placeOrder(db, client, key, body) {
  let valor;
  try {
    valor = JSON.parse(body.toString()).payment.valor;
  } catch {
    valor = undefined;
  }
  if (!valor) return complete(db, client, key, 400, '{"error":"payment.valor required"}');
  const providerKey = crypto.createHmac("sha256", process.env.IDEMPOTENCY_HMAC_KEY).update(`${client}\x00${key}`).digest("hex");
  let chargeId;
  try {
    chargeId = await charge(providerKey, valor);
  } catch (err) {
    // Not completed: release the lock so a retry can drive it again.
    await db.query("update idempotency_keys set locked_until = now() - interval '1 second' where client_id = $1 and key = $2", [client, key]);
    console.error(err);
    return [502, '{"error":"payment provider unavailable, retry with the same key"}'];
  }
  await db.query("begin");
  try {
    const { rows } = await db.query("insert into orders (client_id, idem_key, charge_id, amount) values ($1, $2, $3, $4) returning id", [
      client,
      key,
      chargeId,
      valor,
    ]);
    const out = JSON.stringify({ order_id: `ord_${rows[0].id}`, charge_id: chargeId, amount: valor });
    await db.query(
      "update idempotency_keys set status = 'done', response_status = 201, response_body = $3, locked_by = null where client_id = $1 and key = $2",
      [client, key, out],
    );
    await db.query("commit");
    return [201, out];
  } catch (err) {
    await db.query("rollback").catch(() => {});
    throw err;
  }
}

// complete stores a final error answer, so its replay is the same error.
async function complete(db, client, key, status, out) {
  await db.query(
    "update idempotency_keys set status = 'done', response_status = $3, response_body = $4, locked_by = null where client_id = $1 and key = $2",
    [client, key, status, out],
  );
  return [status, out];
}

async function charge(key, amount) {
  const resp = await fetch(`${process.env.PROVIDER_URL}/v1/charges`, {
    method: "POST",
    headers: { "Idempotency-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ amount, currency: "BRL" }),
    signal: AbortSignal.timeout(10000),
  });
  if (resp.status !== 200) throw new Error(`provider answered ${resp.status}`);
  return (await resp.json()).id;
}

// fingerprint identifies the request: its JSON by value (keys sorted), so
// key order and spacing do not make it another request.
function fingerprint(body) {
  let text = body.toString();
  try {
    text = canonical(JSON.parse(text));
  } catch {
    // not JSON: the bytes are the request
  }
  return crypto.createHash("sha256").update(text).digest("hex");
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function reply(res, status, body) {
  res.status(status).type("application/json").send(body);
}

const [host, port] = process.argv[2].split(/:(?=\d+$)/);
app.listen(Number(port), host);
