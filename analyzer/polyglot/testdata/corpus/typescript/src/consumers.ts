// Transport identity read from a delivery's envelope (findings), and the
// same names read from the message body (silent).
import amqp from "amqplib";
import { connect, JsMsg } from "nats";
import { Worker, Job } from "bullmq";
import { Kafka } from "kafkajs";
import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import axios from "axios";

const API = "https://api.provider.example/payouts";
const sqs = new SQSClient({});

export async function consume() {
  const conn = await amqp.connect("amqp://localhost");
  const ch = await conn.createChannel();
  // case: transport/amqplib finding
  await ch.consume("payouts", async (msg) => {
    await axios.post(API, {}, { headers: { "Idempotency-Key": msg!.properties.messageId } }); // want IDEM001
    ch.ack(msg!);
  });
  // case: transport/amqplib finding
  await ch.consume("refunds", async (msg) => {
    await axios.post(API, {}, { headers: { "Idempotency-Key": `refund-${msg!.fields.deliveryTag}` } }); // want IDEM001
  });
  // case: transport/amqplib silent
  await ch.consume("payouts2", async (msg) => {
    const body = JSON.parse(msg!.content.toString());
    await axios.post(API, {}, { headers: { "Idempotency-Key": body.messageId } });
  });
}

// case: transport/nats finding
export async function onJs(m: JsMsg) {
  await axios.post(API, {}, { headers: { "Idempotency-Key": `${m.subject}-${m.info.redeliveryCount}` } }); // want IDEM001
}

// case: transport/nats silent
export async function onJsBody(m: JsMsg) {
  const data = m.json<{ seq: number; subject: string }>();
  await axios.post(API, {}, { headers: { "Idempotency-Key": `${data.subject}-${data.seq}` } });
}

// case: transport/bullmq finding
new Worker("charges", async (job: Job) => {
  await axios.post(API, { amount: job.data.cents }, { headers: { "Idempotency-Key": `${job.data.orderId}-${job.attemptsMade}` } }); // want IDEM001
});

// case: transport/bullmq silent
new Worker("charges2", async (job: Job) => {
  await axios.post(API, { amount: job.data.cents }, { headers: { "Idempotency-Key": `${job.data.orderId}-${job.data.attemptsMade}` } });
});

const kafka = new Kafka({ brokers: ["localhost:9092"] });
const consumer = kafka.consumer({ groupId: "payouts" });

export async function runKafka() {
  await consumer.run({
    // case: transport/kafka finding
    eachMessage: async ({ topic, partition, message }) => {
      await axios.post(API, {}, { headers: { "Idempotency-Key": `${topic}-${partition}-${message.offset}` } }); // want IDEM001
    },
  });
  await consumer.run({
    // case: transport/kafka silent
    eachMessage: async ({ message }) => {
      const ev = JSON.parse(message.value!.toString());
      await axios.post(API, {}, { headers: { "Idempotency-Key": ev.eventId } });
    },
  });
}

// case: transport/sqs finding
export async function pollSqs() {
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: "q" }));
  for (const m of Messages ?? []) {
    await axios.post(API, {}, { headers: { "Idempotency-Key": m.MessageId! } }); // want IDEM001
  }
}

// case: transport/sqs silent
export async function pollSqsBody() {
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: "q" }));
  for (const m of Messages ?? []) {
    const intent = JSON.parse(m.Body!);
    await axios.post(API, {}, { headers: { "Idempotency-Key": intent.payoutId } });
  }
}

// case: transport/whatsapp finding
export async function whatsappWebhook(req: any) {
  const wamid = req.body.entry[0].changes[0].value.messages[0].id;
  await axios.post(API, {}, { headers: { "Idempotency-Key": wamid } }); // want IDEM001
}

// case: transport/whatsapp silent
export async function whatsappOrder(req: any) {
  const order = req.body.entry[0].changes[0].value.order.id;
  await axios.post(API, {}, { headers: { "Idempotency-Key": order } });
}
