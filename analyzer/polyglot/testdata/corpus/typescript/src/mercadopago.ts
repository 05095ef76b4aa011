// Mercado Pago's REST API called with fetch: a capture of an authorized
// payment can happen once, whatever its key; a payment on a saved card
// charges again under a new one.
const MP = "https://api.mercadopago.com/v1";

// case: sink/provider-capture silent
export async function capturePayment(paymentId: string, amount: number) {
  await fetch(`${MP}/payments/${paymentId}`, {
    method: "PUT",
    headers: { "X-Idempotency-Key": `capture-${paymentId}-${Date.now()}` },
    body: JSON.stringify({ capture: true, transaction_amount: amount }),
  });
}

// case: sink/provider-capture finding
export async function chargeSavedCard(customer: string, card: string, reference: string) {
  await fetch(`${MP}/payments`, {
    method: "POST",
    headers: { "X-Idempotency-Key": `charge-${reference}-${Date.now()}` }, // want IDEM001
    body: JSON.stringify({ payer: { type: "customer", id: customer }, card_id: card, capture: false }),
  });
}
