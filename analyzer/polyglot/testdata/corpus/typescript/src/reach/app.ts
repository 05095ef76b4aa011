import express from "express";

const app = express();

// The exported connector reached through an untyped request context.
app.post("/intents", async (req: any, res: any) => {
  const intent = await req.services.connector.createIntent(req.body.cents, req.body.customer);
  res.json({ secret: intent.client_secret });
});

// A Kafka consumer reaches the exported connector the same way.
export async function consumeRefunds(consumer: any, ctx: any) {
  await consumer.run({
    eachMessage: async ({ message }: any) => {
      const ev = JSON.parse(message.value.toString());
      await ctx.services.connector.refund(ev.paymentIntent);
    },
  });
}
