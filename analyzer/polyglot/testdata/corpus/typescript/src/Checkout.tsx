// TSX: a component's submit handler.
import { randomUUID } from "crypto";

// case: module/tsx finding
export function Checkout({ orderId }: { orderId: string }) {
  const onPay = async () => {
    await fetch("/api/pay", { method: "POST", headers: { "Idempotency-Key": randomUUID() } }); // want IDEM001
  };
  return <button onClick={onPay}>Pay {orderId}</button>;
}

// case: module/tsx silent
export function CheckoutStable({ orderId }: { orderId: string }) {
  const onPay = async () => {
    await fetch("/api/pay", { method: "POST", headers: { "Idempotency-Key": `order-${orderId}` } });
  };
  return <button onClick={onPay}>Pay</button>;
}
