// case: walk/test-support silent
// A k6 load test: every virtual user's request draws its own key on
// purpose. It is test support, not a handler.
import http from "k6/http";
import { check } from "k6";


export const options = { vus: 10, duration: "30s" };

export default function () {
  const res = http.post("http://localhost:8080/payments", JSON.stringify({ cents: 100 }), {
    headers: { "Content-Type": "application/json", "Idempotency-Key": `${__VU}-${Date.now()}-${Math.random()}` },
  });
  check(res, { created: (r) => r.status === 201 });
}
