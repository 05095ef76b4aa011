// Services handed in by dependency injection: a constructor parameter
// declared of a project class, stored by its parameter property. Its
// methods are followed, not taken for a call that leaves the process.
import { randomUUID } from "crypto";
import { Pool } from "pg";

const pool = new Pool();

export class Outbox {
  async enqueue(kind: string, options: { idempotencyKey: string }) {
    // The key is written with the row, in the same transaction; the
    // dispatcher sends the stored key on every retry.
    await pool.query("INSERT INTO outbox (kind, idem_key) VALUES ($1, $2)", [kind, options.idempotencyKey]);
  }
}

export class Gateway {
  async charge(cents: number, key: string) {
    await fetch("https://api.provider.example/charges", { method: "POST", headers: { "Idempotency-Key": key }, body: JSON.stringify({ cents }) }); // want IDEM001
  }
}

export class SignupService {
  constructor(private readonly outbox: Outbox, private readonly gateway: Gateway) {}

  // case: flow/injected-service silent
  async sendWelcome(userId: string) {
    await this.outbox.enqueue("welcome", { idempotencyKey: `welcome/${userId}/${randomUUID()}` });
  }

  // case: flow/injected-service finding
  async chargeSignupFee(userId: string) {
    // Reported where the key is sent, with this call among the hops.
    await this.gateway.charge(500, randomUUID());
  }
}

// Whoever signs users up (its callers are out of view) charges the fee.
export async function onSignup(signups: SignupService, userId: string) {
  await signups.chargeSignupFee(userId);
}

type DbClient = { outboxEvent: { create(args: unknown): Promise<unknown> } };

export class OutboxRepository {
  constructor(private readonly getClient: () => Promise<DbClient>) {}

  // case: sink/orm-write-shape silent
  async create(kind: string, metadata: { idempotencyKey?: string } = {}) {
    // A Prisma client handed in: its create({ data }) writes a row.
    const db = await this.getClient();
    return db.outboxEvent.create({ data: { kind, idempotencyKey: metadata.idempotencyKey } });
  }
}

export async function enqueueWelcome(repo: OutboxRepository, userId: string) {
  // The key is stored with the row; the dispatcher sends the stored one.
  await repo.create("welcome", { idempotencyKey: `welcome/${userId}/${randomUUID()}` });
}

// case: sink/orm-write-shape finding
export async function sendTransfer(api: { transfers: { create(args: unknown): Promise<unknown> } }, cents: number) {
  // The same verb on an API client, with no data wrapper, sends the key.
  return api.transfers.create({ amount: cents, idempotencyKey: randomUUID() }); // want IDEM001
}

function checkoutKey(tenantId: string | number, email: string | number, purpose: string | number) {
  return `${tenantId}:${email}:${purpose}`;
}

export class CheckoutFactory {
  async open(input: { amountCents: number; idempotencyKeyParts: (string | number)[] }) {
    // Only the first three parts make the key: a fourth is ignored.
    const key = checkoutKey(...input.idempotencyKeyParts);
    await fetch("https://api.provider.example/sessions", { method: "POST", headers: { "Idempotency-Key": key }, body: JSON.stringify({ amount: input.amountCents }) });
  }
}

interface BookingOptions {
  checkoutFactory: CheckoutFactory;
}

export class BookingService {
  // A field declared of a project class, filled from an options object:
  // the declaration says what it holds, and its methods are followed.
  private readonly checkoutFactory: CheckoutFactory;

  constructor(options: BookingOptions) {
    this.checkoutFactory = options.checkoutFactory;
  }

  // case: flow/injected-service silent
  async book(tenantId: string, email: string) {
    return this.checkoutFactory.open({ amountCents: 500, idempotencyKeyParts: [tenantId, email, "deposit", Date.now()] });
  }
}

// Whoever books (its callers are out of view) opens the checkout.
export async function onBooking(bookings: BookingService, tenantId: string, email: string) {
  await bookings.book(tenantId, email);
}
