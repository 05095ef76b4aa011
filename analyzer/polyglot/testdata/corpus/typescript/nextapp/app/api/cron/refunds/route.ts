export async function GET() {
  const { refundLate } = await import("../../../../lib/refunds");
  await refundLate("pi_1");
  return new Response("ok");
}
