// A schema is no data: its min(new Date()) bound is no clock reading in the
// values it parses; a clock read into the key is.
import { z } from "zod";
import { Worker } from "bullmq";

const API = "https://api.provider.example/bookings";
const booking = z.object({ startTime: z.date().min(new Date()), email: z.string() });

// case: flow/schema-validator silent
export async function bookSlot(input: unknown) {
  const b = booking.parse(input);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${b.email}-${b.startTime.toISOString()}` } });
}

// case: flow/schema-validator finding
export async function bookNow(input: unknown) {
  const b = booking.parse(input);
  await fetch(API, { method: "POST", headers: { "Idempotency-Key": `${b.email}-${new Date().toISOString()}` } }); // want IDEM001
}

new Worker("bookings", async (job) => {
  await bookSlot(job.data);
  await bookNow(job.data);
});
