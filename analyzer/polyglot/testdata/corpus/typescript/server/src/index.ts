// The program's entry: it starts the payout worker. Nothing imports the
// legacy service, so its methods cannot run.
import { startPayoutWorker } from "./workers/payouts";

startPayoutWorker();
