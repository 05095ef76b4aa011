// Jest's manual mock of the provider: test support, skipped unless --tests.
export async function holdCard(reference: string) {
  // case: walk/underscore-dir silent
  await fetch("https://api.provider.example/holds", { method: "POST", headers: { "Idempotency-Key": `mock-${reference}-${Date.now()}` } });
}
