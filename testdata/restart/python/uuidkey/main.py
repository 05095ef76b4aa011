"""A broken payment handler in Python (psycopg): it draws its idempotency
key inside the attempt, so when the provider's answer is lost and the
message is redelivered, the second attempt charges again."""
import json
import os
import sys
import urllib.request
import uuid

import psycopg


def main():
    msg = json.load(sys.stdin)
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        done = conn.execute("select exists (select 1 from intents where message_id = %s and status = 'done')", (msg["message_id"],)).fetchone()[0]
        if done:
            return
        key = str(uuid.uuid4())  # the bug: a new key every attempt
        req = urllib.request.Request(
            os.environ["PROVIDER_URL"] + "/v1/charges",
            data=json.dumps(msg["payment"]).encode(),
            headers={"Idempotency-Key": key, "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            charge = json.load(resp)["id"]
        conn.execute(
            "insert into intents (message_id, payload, key, status, charge_id) values (%s, '{}', %s, 'done', %s) on conflict do nothing",
            (msg["message_id"], key, charge),
        )


if __name__ == "__main__":
    main()
