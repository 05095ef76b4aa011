// A function of the same name as PayoutService's private method: its
// calls say nothing of that method's.
export async function refundTransfer(transferId: string): Promise<void> {
  console.log("refund requested", transferId);
}
