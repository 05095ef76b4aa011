// Test support for Bun's runner: mocks that import bun:test, outside any
// test directory. Skipped unless --tests, as a test file is.
import { mock } from "bun:test";
import { randomUUID } from "crypto";

export const mockCharge = mock();

// case: walk/test-support silent
export async function replayRefund(id: string) {
  await fetch("https://api.provider.example/refunds", { method: "POST", headers: { "Idempotency-Key": randomUUID() }, body: id });
}
