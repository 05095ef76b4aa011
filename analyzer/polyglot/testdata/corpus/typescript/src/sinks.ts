// Every sink family: the key leaves the process (findings), or a key-named
// value does not (silent).
import { randomUUID } from "crypto";
import axios from "axios";
import got from "got";
import ky from "ky";
import { request } from "undici";
import Stripe from "stripe";
import { SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";
import pino from "pino";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const sqs = new SQSClient({});
const logger = pino();
const API = "https://api.provider.example/charges";

// case: sink/fetch finding
export async function withFetch(id: string) {
  const headers = new Headers();
  headers.set("Idempotency-Key", randomUUID());
  await fetch(API, { method: "POST", headers }); // want IDEM001
}

// case: sink/fetch silent
export async function fetchLogged(id: string) {
  const key = randomUUID();
  logger.info({ idempotencyKey: key }, "sending");
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": id } });
}

// case: sink/axios finding
export async function withAxios(id: string) {
  const client = axios.create({ baseURL: API });
  await client.post("/charges", { id }, { headers: { "X-Idempotency-Key": randomUUID() } }); // want IDEM001
}

// case: sink/axios silent
export async function axiosStable(id: string) {
  await axios.post(API, { id, nonce: randomUUID() }, { headers: { "X-Idempotency-Key": `charge-${id}` } });
}

// case: sink/got finding
export async function withGot(id: string) {
  await got.post(API, { json: { id }, headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}

// case: sink/got silent
export async function gotStable(id: string) {
  await got.post(API, { json: { id }, headers: { "Idempotency-Key": id, "X-Request-Id": randomUUID() } });
}

// case: sink/undici finding
export async function withUndici(id: string) {
  await request(API, { method: "POST", headers: { "idempotency-key": randomUUID() } }); // want IDEM001
}

// case: sink/undici silent
export async function undiciStable(id: string) {
  await request(API, { method: "POST", headers: { "idempotency-key": id } });
}

// case: sink/ky finding
export async function withKy(id: string) {
  await ky.post(API, { json: { id }, headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}

// case: sink/ky silent
export async function kyStable(id: string) {
  await ky.post(API, { json: { id, trace: randomUUID() }, headers: { "Idempotency-Key": id } });
}

// case: sink/stripe finding
export async function withStripe(id: string, cents: number) {
  await stripe.paymentIntents.create({ amount: cents, currency: "brl" }, { idempotencyKey: randomUUID() }); // want IDEM001
}

// case: sink/stripe silent
export async function stripeStable(id: string, cents: number) {
  await stripe.paymentIntents.create({ amount: cents, currency: "brl", metadata: { trace: randomUUID() } }, { idempotencyKey: `pi-${id}` });
}

// case: sink/sdk_body finding
export async function withSquare(client: any, nonce: string) {
  await client.paymentsApi.createPayment({ sourceId: nonce, idempotencyKey: randomUUID() }); // want IDEM001
}

// case: sink/sdk_body silent
export async function squareStable(client: any, nonce: string, id: string) {
  await client.paymentsApi.createPayment({ sourceId: nonce, idempotencyKey: id, referenceId: randomUUID() });
}

// case: sink/sqs_dedup finding
export async function withSqs(id: string) {
  await sqs.send(new SendMessageCommand({ QueueUrl: "q.fifo", MessageBody: id, MessageGroupId: "g", MessageDeduplicationId: randomUUID() })); // want IDEM001
}

// case: sink/sqs_dedup silent
export async function sqsStable(id: string) {
  await sqs.send(new SendMessageCommand({ QueueUrl: "q.fifo", MessageBody: id, MessageGroupId: randomUUID(), MessageDeduplicationId: id }));
}

// case: sink/configured finding
export async function withConfigured(client: any, id: string) {
  await client.transfer({ amount: 1, opRef: randomUUID() }); // want IDEM001
}

// case: sink/configured silent
export async function configuredStable(client: any, id: string) {
  await client.transfer({ amount: 1, opRef: id, note: randomUUID() });
}
