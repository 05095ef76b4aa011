"""A Flask API that takes Idempotency-Key from its clients and keeps the
whole contract (the design of testdata/restart/api/right, in Python with
psycopg): keys are per client, the request is fingerprinted (422 for the
same key with another body), a key in progress answers 409 with
Retry-After, the stored response is replayed as stored, a request without
a key is refused with 400. A crash cannot leave a key stuck in
"processing": the row's lock names the database session of the request
driving it, and a dead session's lock is taken over.

    python3 main.py 127.0.0.1:8089
"""
import hashlib
import hmac
import json
import os
import sys
import urllib.request

import psycopg
from flask import Flask, Response, request

app = Flask(__name__)


@app.post("/v1/orders")
def create_order():
    # mutant:client-scope
    client = request.headers.get("Authorization", "")
    # mutant> client = ""  # one key space for every client
    # mutant:end
    key = request.headers.get("Idempotency-Key", "")
    if not key:
        return reply(400, '{"error":"Idempotency-Key header required"}')
    body = request.get_data()
    # One connection for the whole request: its backend pid is the lock,
    # and it dies with the server.
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        fp = fingerprint(body)
        # mutant:fingerprint
        # mutant> fp = ""  # every body is the same request
        # mutant:end
        claimed, stored = claim(conn, client, key, fp)
        # mutant:in-progress
        # mutant> claimed = claimed or stored["status"] == "processing"  # a key still running is driven again
        # mutant:end
        if not claimed and stored["fingerprint"] != fp:
            return reply(422, '{"error":"Idempotency-Key reused with a different request"}')
        if not claimed and stored["status"] == "done":
            # mutant:replay-response
            return reply(stored["response_status"], stored["response_body"])  # the stored bytes, not a new rendering
            # mutant> return reply(200, stored["response_body"])  # a new rendering: 200, not the stored 201
            # mutant:end
        if not claimed:
            return reply(409, '{"error":"a request with this Idempotency-Key is in progress"}', {"Retry-After": "1"})
        return reply(*place_order(conn, client, key, body))


def claim(conn, client, key, fp):
    """Inserts the key as processing, or takes over a processing key whose
    lock holder is gone (its server crashed). Returns whether this request
    now drives the key, and otherwise what is stored for it."""
    row = conn.execute(
        """insert into idempotency_keys (client_id, key, fingerprint, status, locked_by, locked_until)
values (%s, %s, %s, 'processing', pg_backend_pid(), now() + interval '30 seconds')
on conflict (client_id, key) do update
  set locked_by = pg_backend_pid(), locked_until = excluded.locked_until
  where idempotency_keys.status = 'processing'
    and idempotency_keys.fingerprint = excluded.fingerprint
    and (idempotency_keys.locked_until < now()
         or not exists (select 1 from pg_stat_activity where pid = idempotency_keys.locked_by))
returning status""",
        (client, key, fp),
    ).fetchone()
    if row is not None:
        return True, None
    status, stored_fp, response_status, response_body = conn.execute(
        "select status, fingerprint, response_status, response_body from idempotency_keys where client_id = %s and key = %s",
        (client, key),
    ).fetchone()
    return False, {"status": status, "fingerprint": stored_fp, "response_status": response_status, "response_body": response_body}


def place_order(conn, client, key, body):
    """Charges under a key derived from (client, key), so a takeover after a
    crash is replayed by the provider, then writes the order and completes
    the key in one transaction."""
    try:
        valor = json.loads(body)["payment"]["valor"]
    except (ValueError, KeyError, TypeError):
        valor = None
    if not valor:
        return complete(conn, client, key, 400, '{"error":"payment.valor required"}')
    secret = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()
    provider_key = hmac.new(secret, f"{client}\x00{key}".encode(), hashlib.sha256).hexdigest()
    try:
        # mutant:provider-key-scope
        charge_id = charge(provider_key, valor)
        # mutant> charge_id = charge(key, valor)  # the client's own key passed on: one key space at the provider
        # mutant:end
    except OSError as err:
        # Not completed: release the lock so a retry can drive it again.
        conn.execute(
            "update idempotency_keys set locked_until = now() - interval '1 second' where client_id = %s and key = %s",
            (client, key),
        )
        print(err, file=sys.stderr)
        return 502, '{"error":"payment provider unavailable, retry with the same key"}'
    with conn.transaction():
        order_id = conn.execute(
            "insert into orders (client_id, idem_key, charge_id, amount) values (%s, %s, %s, %s) returning id",
            (client, key, charge_id, valor),
        ).fetchone()[0]
        out = json.dumps({"order_id": f"ord_{order_id}", "charge_id": charge_id, "amount": valor}, separators=(",", ":"))
        # mutant:complete-in-tx
        conn.execute(COMPLETE_KEY, (out, client, key))
        # mutant:end
    # mutant:complete-in-tx
    # mutant> conn.execute(COMPLETE_KEY, (out, client, key))  # a second transaction
    # mutant:end
    return 201, out


COMPLETE_KEY = "update idempotency_keys set status = 'done', response_status = 201, response_body = %s, locked_by = null where client_id = %s and key = %s"


def complete(conn, client, key, status, out):
    """Stores a final error answer, so its replay is the same error."""
    conn.execute(
        "update idempotency_keys set status = 'done', response_status = %s, response_body = %s, locked_by = null where client_id = %s and key = %s",
        (status, out, client, key),
    )
    return status, out


def charge(key, amount):
    req = urllib.request.Request(
        os.environ["PROVIDER_URL"] + "/v1/charges",
        data=json.dumps({"amount": amount, "currency": "BRL"}).encode(),
        headers={
            # mutant:provider-key
            "Idempotency-Key": key,
            # mutant:end
            "Content-Type": "application/json",
        },
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)["id"]


def fingerprint(body):
    """Identifies the request: its JSON by value, so key order and spacing
    do not make it another request."""
    try:
        body = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    except ValueError:
        pass
    return hashlib.sha256(body).hexdigest()


def reply(status, body, headers=None):
    return Response(body, status=status, mimetype="application/json", headers=headers)


if __name__ == "__main__":
    host, port = sys.argv[1].rsplit(":", 1)
    app.run(host=host, port=int(port), threaded=True)
