import express from "express";
import { Worker } from "bullmq";
import { approveWithdrawal, nightlyPayout } from "./services";

export const withdrawals = express.Router();
withdrawals.post("/:id/approve", approveWithdrawal);

new Worker("nightly-payouts", nightlyPayout);
