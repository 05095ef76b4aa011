// Companion rules: IDEM003 float, IDEM004 whole payload, IDEM005 bare
// digest, IDEM007 lookup not scoped by tenant.
import { createHash, createHmac } from "crypto";
import { Pool } from "pg";

const API = "https://api.provider.example/charges";
const SECRET = process.env.IDEMPOTENCY_HMAC_KEY!;
const pool = new Pool();

// case: rule/IDEM003 finding
export async function floatKey(order: { id: string; total: string }) {
  const total = parseFloat(order.total);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${order.id}:${total.toFixed(2)}` } }); // want IDEM003
}

// case: rule/IDEM003 silent
export async function centsKey(order: { id: string; total: string }) {
  const cents = Math.round(parseFloat(order.total) * 100);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${order.id}:${cents}` } });
}

// case: rule/IDEM004 finding
export async function payloadKey(body: Record<string, unknown>) {
  const key = createHmac("sha256", SECRET).update(JSON.stringify(body)).digest("hex");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM004
}

// case: rule/IDEM004 silent
export async function fieldListKey(body: { orderId: string; cents: number }) {
  const key = createHmac("sha256", SECRET).update(JSON.stringify({ v: 1, orderId: body.orderId, cents: body.cents })).digest("hex");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
}

// case: rule/IDEM005 finding
export async function bareDigest(order: { id: string; phone: string }) {
  const key = createHash("sha256").update(`${order.id}:${order.phone}`).digest("hex");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM005
}

// case: rule/IDEM005 silent
export async function etag(order: { id: string }, blob: string) {
  const tag = createHash("md5").update(blob).digest("hex");
  await fetch(API, { method: "POST", headers: { "If-None-Match": tag, "Idempotency-Key": order.id } });
}

// case: rule/IDEM005 finding
export async function prefixedDigest(order: { id: string; phone: string }) {
  // A constant prefix adds nothing anyone could not guess.
  const key = `charge:${createHash("sha256").update(`${order.id}:${order.phone}`).digest("hex")}`;
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM005
}

// case: rule/IDEM005 silent
export async function compositeKey(bill: { ownerId: string; month: string; reservationIds: string[] }) {
  // The digest shortens one part of a readable composite key.
  const digest = createHash("sha256").update(bill.reservationIds.sort().join(",")).digest("hex").slice(0, 12);
  const key = [bill.ownerId, bill.month, digest].join("-");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": key } });
}

// case: rule/IDEM007 finding
export async function unscoped(key: string) {
  return pool.query("SELECT response FROM idempotency_keys WHERE idempotency_key = $1", [key]); // want IDEM007
}

// case: rule/IDEM007 silent
export async function scoped(tenant: string, key: string) {
  return pool.query("SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2", [tenant, key]);
}

// case: rule/IDEM007 finding
export async function claimUnscoped(key: string) {
  await pool.query("INSERT INTO idempotency_keys (key, response) VALUES ($1, NULL) ON CONFLICT (key) DO UPDATE SET response = NULL RETURNING *", [key]); // want IDEM007
}

// case: rule/IDEM007 silent
export async function claimScoped(merchantId: string, key: string) {
  await pool.query("INSERT INTO idempotency_keys (merchant_id, key) VALUES ($1, $2) ON CONFLICT (merchant_id, key) DO NOTHING", [merchantId, key]);
}

// case: rule/IDEM005-over-key silent
export async function creditLeg(evt: { idempotencyKey: string }) {
  // A digest over the client's own key is as unguessable as that key.
  const legKey = createHash("sha256").update(`${evt.idempotencyKey}:credit`).digest("hex");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": legKey } });
}

// case: rule/IDEM005-over-key finding
export async function storedDigest(order: { id: string; phone: string }, payment: { idempotencyKey?: string }) {
  // The digest is kept under a key's name and read back: still a digest of
  // guessable fields.
  payment.idempotencyKey = createHash("sha256").update(`${order.id}:${order.phone}`).digest("hex");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": payment.idempotencyKey } }); // want IDEM005
}
