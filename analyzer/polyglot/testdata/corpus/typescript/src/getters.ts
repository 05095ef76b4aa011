// A getter runs at every read: a key it draws is drawn again by each read,
// and each attempt; one it derives from the instance's fields holds.
import { randomUUID } from "crypto";

const API = "https://api.provider.example/refunds";

class DrawingRefund {
  constructor(private paymentId: string) {}
  get idempotencyKey() {
    return randomUUID();
  }
  async send(cents: number) {
    // case: flow/property-getter finding
    await fetch(API, { method: "POST", headers: { "Idempotency-Key": this.idempotencyKey }, body: JSON.stringify({ id: this.paymentId, cents }) }); // want IDEM001
  }
}

class DerivedRefund {
  constructor(private paymentId: string) {}
  get idempotencyKey() {
    return `refund-${this.paymentId}`;
  }
  async send(cents: number) {
    // case: flow/property-getter silent
    await fetch(API, { method: "POST", headers: { "Idempotency-Key": this.idempotencyKey }, body: JSON.stringify({ id: this.paymentId, cents }) });
  }
}

export async function refundJob(paymentId: string) {
  await new DrawingRefund(paymentId).send(100);
  await new DerivedRefund(paymentId).send(100);
}
