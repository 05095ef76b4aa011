// A GET a scheduler calls: judged by its callers, out of view.
import { payOutWeekly, payOutBonus, monthlyFee } from "../../../../lib";

export async function GET() {
  await payOutWeekly("acct_1", 5000);
  await monthlyFee("acct_1", 100);
  return new Response("ok");
}
