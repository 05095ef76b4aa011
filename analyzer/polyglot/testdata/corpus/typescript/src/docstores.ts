// Rows read back whatever their query compares: a Firestore query with a
// clock bound, a NestJS service's injected TypeORM repository, a query
// builder with a clock parameter.
import { randomUUID } from "crypto";
import { getFirestore } from "firebase-admin/firestore";
import * as admin from "firebase-admin";
import { Body, Controller, Injectable, Post } from "@nestjs/common";
import { InjectRepository } from "@nestjs/typeorm";
import { Repository } from "typeorm";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const db = getFirestore();

// case: barrier/firestore silent
export async function releaseDue() {
  const now = new Date();
  const snap = await db.collection("escrows").where("releaseAt", "<=", now).limit(50).get();
  for (const d of snap.docs) {
    await stripe.transfers.create({ amount: d.get("cents"), currency: "usd", destination: d.get("account") }, { idempotencyKey: `transfer_${d.id}` });
  }
}

// case: barrier/firestore finding
export async function releaseDueStamped() {
  const now = new Date();
  const snap = await db.collection("escrows").where("releaseAt", "<=", now).get();
  for (const d of snap.docs) {
    await stripe.transfers.create({ amount: d.get("cents"), currency: "usd", destination: d.get("account") }, { idempotencyKey: `transfer_${d.id}_${now.getTime()}` }); // want IDEM001
  }
}

// case: barrier/firestore silent
export async function captureDue(store: admin.firestore.Firestore) {
  // A parameter declared of the library's type: its reads are reads too.
  const cutoff = new Date(Date.now() - 15 * 60 * 1000);
  const snap = await store.collection("payments").where("createdAt", "<", cutoff).get();
  for (const d of snap.docs) {
    await stripe.paymentIntents.capture(d.id, {}, { idempotencyKey: `capture_${d.id}` });
  }
}

@Injectable()
export class BookingService {
  constructor(@InjectRepository(Booking) private readonly bookings: Repository<Booking>) {}

  // case: barrier/repository-field silent
  async book(dto: { cents: number; pm: string }) {
    // The row written first, with a fresh reference beside its id: the
    // id is the row's, not made of the reference.
    const booking = await this.bookings.save(this.bookings.create({ reference: `MB-${randomUUID()}`, cents: dto.cents }));
    await stripe.paymentIntents.create({ amount: dto.cents, currency: "usd", payment_method: dto.pm, confirm: true }, { idempotencyKey: `booking-${booking.id}` });
  }

  // case: barrier/repository-field finding
  async bookUnsaved(dto: { cents: number; pm: string }) {
    const booking = this.bookings.create({ reference: `MB-${randomUUID()}`, cents: dto.cents });
    await stripe.paymentIntents.create({ amount: dto.cents, currency: "usd", payment_method: dto.pm, confirm: true }, { idempotencyKey: `booking-${booking.reference}` }); // want IDEM001
  }

  // case: sink/orm-write-shape silent
  async withdraw(userId: string, cents: number) {
    // The entity built, then written: its key is a column, sent nowhere.
    const reference = `WD-${randomUUID()}`;
    return this.bookings.save(this.bookings.create({ reference, cents, idempotencyKey: reference }));
  }

  // case: barrier/query-builder silent
  async deliverDue() {
    const items = await this.bookings.createQueryBuilder("b").where("b.nextAttemptAt <= :now", { now: new Date() }).take(25).getMany();
    for (const item of items) {
      await fetch("https://partner.example/events", { method: "POST", headers: { "Idempotency-Key": item.id } });
    }
  }

  // case: barrier/query-builder finding
  async deliverDueStamped() {
    const now = Date.now();
    const items = await this.bookings.createQueryBuilder("b").where("b.nextAttemptAt <= :now", { now }).getMany();
    for (const item of items) {
      await fetch("https://partner.example/events", { method: "POST", headers: { "Idempotency-Key": `${item.id}-${now}` } }); // want IDEM001
    }
  }
}

@Controller("bookings")
export class BookingController {
  constructor(private readonly service: BookingService) {}

  @Post()
  async create(@Body() dto: { cents: number; pm: string }) {
    await this.service.book(dto);
    await this.service.bookUnsaved(dto);
  }

  @Post("deliver")
  async deliver() {
    await this.service.deliverDue();
    await this.service.deliverDueStamped();
  }
}

// case: sink/firestore-write silent
export async function queueNotice(chatId: string, text: string) {
  // A document written: the key is a field of a row, read back by the
  // queue's worker, not a key sent to anyone.
  await db.collection("telegram_queue").add({ chatId, text, idempotencyKey: `${chatId}:${Date.now()}` });
}

// case: sink/firestore-write finding
export async function sendNotice(chatId: string, text: string) {
  await fetch("https://api.provider.example/messages", { method: "POST", headers: { "Idempotency-Key": `${chatId}:${Date.now()}` }, body: text }); // want IDEM001
}
