// Per-attempt sources (findings) and their silent look-alikes.
import crypto, { randomUUID } from "node:crypto";
import { v1 as uuidv1, v4 as uuidv4, v5 as uuidv5, v7 } from "uuid";
import { nanoid, customAlphabet } from "nanoid";
import cuid from "cuid";
import { createId } from "@paralleldrive/cuid2";
import { ulid, decodeTime } from "ulid";
import { nextId } from "@acme/ids";
import { performance } from "node:perf_hooks";

const API = "https://api.provider.example/charges";
type Order = { id: string; cents: number; createdAt: string };

function post(key: string) {
  return fetch(API, { method: "POST", headers: { "Idempotency-Key": key } }); // want IDEM001
}

// case: source/crypto.randomUUID finding
export async function uuidKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}

// case: source/crypto.randomUUID silent
export async function uuidTrace(order: Order) {
  await fetch(API, { method: "POST", headers: { "X-Trace": randomUUID(), "Idempotency-Key": order.id } });
}

// case: source/uuid finding
export async function uuidPkg(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${uuidv4()}` } }); // want IDEM001
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": uuidv1() } }); // want IDEM001
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": v7() } }); // want IDEM001
}

// case: source/uuid silent
export async function uuidNameBased(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": uuidv5(order.id, uuidv5.URL) } });
}

// case: source/nanoid finding
export async function nanoidKey(order: Order) {
  const gen = customAlphabet("0123456789abcdef", 16);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${order.id}-${nanoid()}` } }); // want IDEM001
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": gen() } }); // want IDEM001
}

// case: source/nanoid silent
export async function nanoidRowId(order: Order) {
  const rowId = nanoid();
  await fetch(API, { method: "POST", body: JSON.stringify({ rowId }), headers: { "Idempotency-Key": order.id } });
}

// case: source/cuid finding
export async function cuidKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": cuid() } }); // want IDEM001
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": createId() } }); // want IDEM001
}

// case: source/cuid silent
export async function cuidInBody(order: Order) {
  await fetch(API, { method: "POST", body: createId(), headers: { "Idempotency-Key": order.id } });
}

// case: source/ulid finding
export async function ulidKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": ulid() } }); // want IDEM001
}

// case: source/ulid silent
export async function ulidDecoded(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${order.id}-${decodeTime(order.id)}` } });
}

// case: source/Date.now finding
export async function dateNowKey(order: Order) {
  await post(`${order.id}:${Date.now()}`);
}

// case: source/Date.now silent
export async function dateNowLogged(order: Order) {
  console.log("sent at", Date.now());
  await post(`${order.id}`);
}

// case: source/new Date() finding
export async function newDateKey(order: Order) {
  const day = new Date().toISOString().slice(0, 10);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `renewal-${order.id}-${day}` } }); // want IDEM001
}

// case: source/new Date() silent
export async function parsedDateKey(order: Order) {
  const day = new Date(order.createdAt).toISOString().slice(0, 10);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `renewal-${order.id}-${day}` } });
}

// case: source/performance.now finding
export async function perfKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${order.id}-${performance.now()}` } }); // want IDEM001 IDEM003
}

// case: source/performance.now silent
export async function perfTiming(order: Order) {
  const t0 = performance.now();
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": order.id } });
  console.info("took", performance.now() - t0);
}

// case: source/Math.random finding
export async function mathRandomKey(order: Order) {
  const r = Math.random().toString(36).slice(2);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": order.id + r } }); // want IDEM001
}

// case: source/Math.random silent
export async function mathRandomBackoff(order: Order) {
  await new Promise((res) => setTimeout(res, Math.random() * 100));
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": order.id } });
}

// case: source/crypto.randomBytes finding
export async function randomBytesKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": crypto.randomBytes(16).toString("hex") } }); // want IDEM001
}

// case: source/crypto.randomBytes silent
export async function randomBytesNonce(order: Order) {
  await fetch(API, { method: "POST", body: crypto.randomBytes(8).toString("hex"), headers: { "Idempotency-Key": order.id } });
}

// case: source/configured finding
export async function configuredKey(order: Order) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `op-${nextId()}` } }); // want IDEM001
}

// case: source/configured silent
export async function configuredLookAlike(order: { nextId: string }) {
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `op-${order.nextId}` } });
}
