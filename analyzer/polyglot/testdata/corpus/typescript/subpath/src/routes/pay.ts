import express from "express";
import { Worker } from "bullmq";

import { payments } from "#connectors/payments.js";

const app = express();
app.post("/charge", async (req, res) => {
  await payments.charge(req.body.customer, req.body.cents);
  res.sendStatus(200);
});

new Worker("payouts", async (job) => {
  await payments.payOut(job.data.account, job.data.cents);
});
