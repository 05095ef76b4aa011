// Service code whose name holds "test" and that imports no test framework:
// linted.
import { randomUUID } from "crypto";

// case: walk/test-support finding
export async function chargeLatest(id: string) {
  await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
}
