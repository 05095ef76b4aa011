// Barriers: keys read back from the database, written before the effect,
// passed through from the client, or replay-stable (silent), next to the
// same code without the barrier (findings).
import { randomUUID } from "crypto";
import { Pool } from "pg";
import knex from "knex";
import { PrismaClient } from "@prisma/client";
import { DataSource } from "typeorm";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq } from "drizzle-orm";
import { uuid4 } from "@temporalio/workflow";
import express from "express";
import Stripe from "stripe";
import { intents } from "@/lib/schema";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const pool = new Pool();
const db = knex({ client: "pg" });
const prisma = new PrismaClient();
const ds = new DataSource({ type: "postgres" });
const orm = drizzle(pool);
const app = express();

// case: barrier/pg silent
export async function pgReadBack(orderId: string) {
  await pool.query("INSERT INTO intents (order_id, idem_key) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING", [orderId, randomUUID()]);
  const { rows } = await pool.query("SELECT idem_key FROM intents WHERE order_id = $1", [orderId]);
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: rows[0].idem_key });
}

// case: barrier/pg finding
export async function pgFreshRow(orderId: string) {
  const res = await pool.query("INSERT INTO payments (order_id) VALUES ($1) RETURNING id", [orderId]);
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: `pay-${res.rows[0].id}` }); // want IDEM001
}

// case: barrier/knex silent
export async function knexReadBack(orderId: string) {
  const row = await db("intents").where({ order_id: orderId }).first();
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: row.idem_key });
}

// case: barrier/knex finding
export async function knexAfterEffect(orderId: string) {
  const key = randomUUID();
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: key }); // want IDEM001
  await db("intents").insert({ order_id: orderId, idem_key: key });
}

// case: barrier/prisma silent
export async function prismaUpsert(orderId: string) {
  const intent = await prisma.intent.upsert({ where: { orderId }, create: { orderId, key: randomUUID() }, update: {} });
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: intent.key });
}

// case: barrier/prisma finding
export async function prismaCreate(orderId: string) {
  const payment = await prisma.payment.create({ data: { orderId } });
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: `payment-${payment.id}` }); // want IDEM001
}

// case: barrier/typeorm silent
export async function typeormReadBack(orderId: string) {
  const intent = await ds.getRepository("Intent").findOneBy({ orderId });
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: intent!.key });
}

// case: barrier/typeorm finding
export async function typeormNotRead(orderId: string) {
  const intent = { orderId, key: randomUUID() };
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: intent.key }); // want IDEM001
  await ds.getRepository("Intent").save(intent);
}

// case: barrier/drizzle silent
export async function drizzleReadBack(orderId: string) {
  const [intent] = await orm.select().from(intents).where(eq(intents.orderId, orderId));
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: intent.key });
}

// case: barrier/drizzle finding
export async function drizzleAfter(orderId: string) {
  const key = randomUUID();
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: key }); // want IDEM001
  await orm.insert(intents).values({ orderId, key });
}

// case: barrier/dominating-write silent
export async function storedFirst(orderId: string) {
  const key = randomUUID();
  await pool.query("INSERT INTO intents (order_id, idem_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", [orderId, key]);
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: key });
}

// case: barrier/dominating-write finding
export async function storedSometimes(orderId: string, persist: boolean) {
  const key = randomUUID();
  if (persist) {
    await pool.query("INSERT INTO intents (order_id, idem_key) VALUES ($1, $2)", [orderId, key]);
  }
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: key }); // want IDEM001
}

// case: barrier/client-key silent
app.post("/charges", async (req, res) => {
  const key = req.header("Idempotency-Key");
  await stripe.charges.create({ amount: req.body.cents }, { idempotencyKey: key });
  res.sendStatus(201);
});

// case: barrier/client-key finding
app.post("/charges2", async (req, res) => {
  await stripe.charges.create({ amount: req.body.cents }, { idempotencyKey: randomUUID() }); // want IDEM001
  res.sendStatus(201);
});

// case: barrier/temporal silent
export async function chargeWorkflow(orderId: string) {
  const key = uuid4();
  await fetch("https://api.provider.example/c", { method: "POST", headers: { "Idempotency-Key": key } });
}

// case: barrier/temporal finding
export async function chargeActivity(orderId: string) {
  await fetch("https://api.provider.example/c", { method: "POST", headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}
