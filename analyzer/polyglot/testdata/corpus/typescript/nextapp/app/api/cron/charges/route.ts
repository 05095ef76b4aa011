import * as charges from "../../../../lib/charges";

export async function GET() {
  await charges.chargeRenewal("cus_1");
  return new Response("ok");
}
