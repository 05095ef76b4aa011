import { chargeOrder } from "$lib/billing";

export const POST = async ({ request }: { request: Request }) => {
  const body = await request.json();
  await chargeOrder(body.orderId, body.amount, body.pm);
  return new Response("ok");
};
