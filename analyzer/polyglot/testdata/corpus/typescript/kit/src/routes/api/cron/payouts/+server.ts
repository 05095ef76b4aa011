import { payOutGuides } from "$lib/billing.js";

export async function GET() {
  await payOutGuides("acct_1", 1000);
  return new Response("ok");
}
