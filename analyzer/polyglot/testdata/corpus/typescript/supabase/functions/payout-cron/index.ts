// Scheduled by pg_cron (supabase/migrations): every run pays what the
// last one left pending, so a transfer that timed out is sent again.
import { serve } from "https://deno.land/std@0.168.0/http/server.ts";
import { payOut, holdCard } from "../_shared/payouts.ts";

serve(async (req) => {
  const rows = await pendingPayouts();
  for (const r of rows) {
    await payOut(r.account, r.cents);
    await holdCard(r.customer, r.card, r.booking);
  }
  return new Response("ok");
});
