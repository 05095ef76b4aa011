// A logger the runtime declares globally (globals.d.ts), not imported.
import { onSchedule } from "firebase-functions/v2/scheduler";

// case: sink/log-field silent
export const auditGlobalTick = onSchedule("every 5 minutes", async () => {
  logger.debug("tick", { data: { idempotencyKey: `tick_${Date.now()}` } });
});
