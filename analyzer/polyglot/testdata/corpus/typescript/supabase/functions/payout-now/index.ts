// Called by the admin page for one request: nothing schedules it.
import { refundNow } from "../_shared/payouts.ts";

Deno.serve(async (req) => {
  const { charge } = await req.json();
  await refundNow(charge);
  return new Response("ok");
});
