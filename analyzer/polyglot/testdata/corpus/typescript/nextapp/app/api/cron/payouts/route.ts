// A GET a scheduler calls: judged by its callers, out of view.
import { payOutWeekly, payOutBonus } from "../../../../lib";

export async function GET() {
  await payOutWeekly("acct_1", 5000);
  return new Response("ok");
}
