// A script that is service code: its key is linted.
import { randomUUID } from "crypto";

// case: walk/test-file finding
export async function replayCharge(id: string) {
  await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}
