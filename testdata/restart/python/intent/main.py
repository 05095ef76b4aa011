"""A correct payment handler in Python (psycopg): it writes the intent
first, derives the key from the frozen payload with an HMAC, reads the key
back, calls the provider, then records the result."""
import hashlib
import hmac
import json
import os
import sys
import urllib.request

import psycopg


def main():
    msg = json.load(sys.stdin)
    secret = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()
    payload = json.dumps(msg["payment"], sort_keys=True, separators=(",", ":"))
    derived = hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        conn.execute(
            "insert into intents (message_id, payload, key) values (%s, %s, %s) on conflict (message_id) do nothing",
            (msg["message_id"], payload, derived),
        )
        key, frozen = conn.execute("select key, payload from intents where message_id = %s", (msg["message_id"],)).fetchone()
        status = conn.execute("select status from intents where key = %s order by status = 'done' desc limit 1", (key,)).fetchone()[0]
        if status == "done":
            return
        req = urllib.request.Request(
            os.environ["PROVIDER_URL"] + "/v1/charges",
            data=frozen.encode(),
            headers={"Idempotency-Key": key, "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            charge = json.load(resp)["id"]
        conn.execute("update intents set status = 'done', charge_id = %s where key = %s", (charge, key))


if __name__ == "__main__":
    main()
