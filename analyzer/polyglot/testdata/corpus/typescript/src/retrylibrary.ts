// A retry library runs the function handed to it again with the same
// closure: a key drawn inside it is drawn per try (reported); one drawn
// above it in a route is sent by every try, as above a retry loop
// (silent); above it in a consumer, a redelivery draws another (reported).
import express from "express";
import amqp from "amqplib";
import pRetry from "p-retry";
import retry from "async-retry";
import { randomUUID } from "crypto";

const API = "https://api.provider.example/charges";
const app = express();

// case: pair/retry-library silent
app.post("/library/pay", async (req, res) => {
  const key = randomUUID();
  await pRetry(() => fetch(API, { method: "POST", headers: { "Idempotency-Key": key }, body: JSON.stringify({ cents: req.body.cents }) }), { retries: 3 });
  res.sendStatus(201);
});

// case: pair/retry-library finding
app.post("/library/pay-each-try", async (req, res) => {
  await retry(
    async () => {
      const key = randomUUID();
      await fetch(API, { method: "POST", headers: { "Idempotency-Key": key }, body: JSON.stringify({ cents: req.body.cents }) }); // want IDEM001
    },
    { retries: 3 },
  );
  res.sendStatus(201);
});

// case: pair/retry-library finding
async function onCharge(msg: amqp.ConsumeMessage) {
  const { cents } = JSON.parse(msg.content.toString());
  const key = randomUUID();
  await pRetry(() => fetch(API, { method: "POST", headers: { "Idempotency-Key": key }, body: JSON.stringify({ cents }) }), { retries: 3 }); // want IDEM001
}

export async function consumeCharges(ch: amqp.Channel) {
  await ch.consume("charges", (m) => onCharge(m!));
}
