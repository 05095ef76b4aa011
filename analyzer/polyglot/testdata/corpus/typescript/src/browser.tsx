"use client";
// A browser component: what useRef was first given is kept for every
// render and click, so the key is one per mount and a retried click
// reuses it; a key drawn in the click handler is new per click.
import * as React from "react";

// case: barrier/component-state silent
export function PayButton({ orderId }: { orderId: string }) {
  const nonce = React.useRef(crypto.randomUUID());
  const pay = async () => {
    await fetch("/api/pay", { method: "POST", headers: { "Idempotency-Key": `${orderId}-${nonce.current}` } });
  };
  return <button onClick={pay}>Pay</button>;
}

// case: barrier/component-state finding
export function PayAgainButton({ orderId }: { orderId: string }) {
  const pay = async () => {
    await fetch("/api/pay", { method: "POST", headers: { "Idempotency-Key": `${orderId}-${crypto.randomUUID()}` } }); // want IDEM001
  };
  return <button onClick={pay}>Pay</button>;
}
