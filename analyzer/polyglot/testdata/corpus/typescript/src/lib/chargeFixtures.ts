// Test support outside __tests__: shared fixtures that import vitest.
// Skipped unless --tests, as a test file is.
import { randomUUID } from "crypto";
import { vi } from "vitest";

export const clock = vi.fn();

// case: walk/test-support silent
export async function replayCharge(id: string) {
  await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": randomUUID() } });
}
