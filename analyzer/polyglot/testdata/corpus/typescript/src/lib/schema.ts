export const intents = { orderId: "order_id", key: "idem_key" };
