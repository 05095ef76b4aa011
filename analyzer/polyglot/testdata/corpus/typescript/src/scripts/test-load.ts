// A test client script (scripts/test-*.ts): test code, skipped unless
// --tests, as Go's _test.go files are; each test payment is meant new.
import { randomUUID } from "crypto";

// case: walk/test-file silent
export async function replayCharge(id: string) {
  await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() } });
}
