// An Express API that takes Idempotency-Key from its clients and keeps the
// whole contract (the design of testdata/restart/api/right, in Node with
// pg): keys are per client, the request is fingerprinted (422 for the same
// key with another body), a key in progress answers 409 with Retry-After,
// the stored response is replayed as stored, a request without a key is
// refused with 400. A crash cannot leave a key stuck in "processing": the
// row's lock names the database session of the request driving it, and a
// dead session's lock is taken over.
//
//	node main.js 127.0.0.1:8089
"use strict";
const crypto = require("node:crypto");
const express = require("express");
const { Client } = require("pg");

const app = express();

app.post("/v1/orders", express.raw({ type: () => true }), async (req, res) => {
  // mutant:client-scope
  const client = req.get("Authorization") ?? "";
  // mutant> const client = ""; // one key space for every client
  // mutant:end
  const key = req.get("Idempotency-Key");
  if (!key) return reply(res, 400, '{"error":"Idempotency-Key header required"}');
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  // One connection for the whole request: its backend pid is the lock, and
  // it dies with the server.
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  try {
    await db.connect();
    // mutant:fingerprint
    const fp = fingerprint(body);
    // mutant> const fp = ""; // every body is the same request
    // mutant:end
    const stored = await claim(db, client, key, fp);
    if (stored && stored.fingerprint !== fp) return reply(res, 422, '{"error":"Idempotency-Key reused with a different request"}');
    // mutant:replay-response
    if (stored && stored.status === "done") return reply(res, stored.response_status, stored.response_body); // the stored bytes, not a new rendering
    // mutant> if (stored && stored.status === "done") return reply(res, 200, stored.response_body); // a new rendering: 200, not the stored 201
    // mutant:end
    // mutant:in-progress
    if (stored) {
      res.set("Retry-After", "1");
      return reply(res, 409, '{"error":"a request with this Idempotency-Key is in progress"}');
    }
    // mutant> // a key still running is driven again
    // mutant:end
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
    and idempotency_keys.fingerprint = excluded.fingerprint
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
    // mutant:provider-key-scope
    chargeId = await charge(providerKey, valor);
    // mutant> chargeId = await charge(key, valor); // the client's own key passed on: one key space at the provider
    // mutant:end
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
    // mutant:complete-in-tx
    await db.query(completeKey, [client, key, out]);
    // mutant:end
    await db.query("commit");
    // mutant:complete-in-tx
    // mutant> await db.query(completeKey, [client, key, out]); // a second transaction
    // mutant:end
    return [201, out];
  } catch (err) {
    await db.query("rollback").catch(() => {});
    throw err;
  }
}

const completeKey =
  "update idempotency_keys set status = 'done', response_status = 201, response_body = $3, locked_by = null where client_id = $1 and key = $2";

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
    headers: {
      // mutant:provider-key
      "Idempotency-Key": key,
      // mutant:end
      "Content-Type": "application/json",
    },
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
