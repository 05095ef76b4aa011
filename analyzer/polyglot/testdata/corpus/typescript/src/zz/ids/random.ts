// A project's own id helpers, in a directory analyzed after their callers,
// behind a barrel file (index.ts). The alphabet is a module constant.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

// crypto.getRandomValues fills the buffer; the characters picked from the
// alphabet by its bytes are as random.
export function randomId(prefix = ""): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  let n = 0n;
  for (let i = 0; i < bytes.length; i++) {
    n = n * 256n + BigInt(bytes[i]!);
  }
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n = n / 62n;
  }
  return prefix + out;
}

// The same encoding of bytes the caller's order id gives: the same on
// every attempt, and its BigInt division is no float.
export function encodedId(prefix: string, orderId: string): string {
  const bytes = new TextEncoder().encode(orderId);
  let n = 0n;
  for (let i = 0; i < bytes.length; i++) {
    n = n * 256n + BigInt(bytes[i]!);
  }
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n = n / 62n;
  }
  return prefix + out;
}
