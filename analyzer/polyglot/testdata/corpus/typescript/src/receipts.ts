// Key-named fields that stay in the process (silent) and their look-alikes
// that leave it (findings): a sink is where the key leaves as a key.
import { randomUUID } from "crypto";
import express from "express";
import axios from "axios";
import got from "got";

const app = express();
const API = "https://api.provider.example/charges";
const syncJobs: object[] = [];

// case: sink/response-body silent
app.post("/receipts", async (req, res) => {
  res.status(201).json({ idempotencyKey: randomUUID(), ok: true });
});

// case: sink/response-body finding
app.post("/forward", async (req, res) => {
  await got.post(API, { json: { idempotencyKey: randomUUID() } }); // want IDEM001
  res.json({ ok: true });
});

// case: sink/in-memory silent
export function queueSync(orderId: string) {
  syncJobs.push({ idempotencyKey: randomUUID(), orderId, attempts: 0 });
}

// case: sink/in-memory finding
export async function sendSync(orderId: string) {
  await axios.post(API, { idempotencyKey: randomUUID(), orderId }); // want IDEM001
}
