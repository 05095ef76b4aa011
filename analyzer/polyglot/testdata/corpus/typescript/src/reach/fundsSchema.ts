import { Worker } from "bullmq";
import addFunds from "./addFunds.js";
import topUpJob from "./topUpJob.js";

export default {
  Mutation: { addFunds },
};

new Worker("top-up", topUpJob);
