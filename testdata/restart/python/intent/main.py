"""A correct payment handler in Python (psycopg): it writes the intent
first, derives the key from the payload normalized with an HMAC, reads the
key back, calls the provider with the payload first frozen under that key,
then records the result."""
import decimal
import hashlib
import hmac
import json
import os
import re
import sys
import urllib.request

import psycopg


def normalized(payment):
    """The payment as the key sees it: the amount in cents, a CPF or CNPJ
    Pix key without punctuation, so the same payment spelled another way
    (123.456.789-09 or 12345678909, 150 or "150.00") is the same key."""
    out = dict(payment)
    out["valor"] = int(decimal.Decimal(str(payment["valor"])) * 100)
    chave = payment.get("chave_pix_destino")
    if isinstance(chave, str) and re.fullmatch(r"[0-9./ -]+", chave):
        out["chave_pix_destino"] = re.sub(r"[^0-9]", "", chave)
    return out


def main():
    msg = json.load(sys.stdin)
    secret = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()
    payload = json.dumps(msg["payment"], sort_keys=True, separators=(",", ":"))
    # The key covers the tenant: another tenant's same payment is its own.
    # mutant:tenant-scope
    scope = {"tenant": msg["tenant"]}
    # mutant> scope = {}  # the key leaves the tenant out: another tenant's same payment gets this one's key
    # mutant:end
    # mutant:normalize
    canonical = json.dumps({**scope, "payment": normalized(msg["payment"])}, sort_keys=True, separators=(",", ":"))
    # mutant> canonical = json.dumps({**scope, "payment": msg["payment"]}, sort_keys=True, separators=(",", ":"))  # as spelled
    # mutant:end
    derived = hmac.new(secret, canonical.encode(), hashlib.sha256).hexdigest()
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        # mutant:persist-first
        # mutant> # the charge goes out before the intent is written or read
        # mutant> charge_provider(payload, derived)
        # mutant:end
        # mutant:on-conflict
        conn.execute(
            "insert into intents (message_id, payload, key) values (%s, %s, %s) on conflict (message_id) do nothing",
            (msg["message_id"], payload, derived),
        )
        # mutant> conn.execute(
        # mutant>     "insert into intents (message_id, payload, key) values (%s, %s, %s)",
        # mutant>     (msg["message_id"], payload, derived),
        # mutant> )
        # mutant:end
        key = conn.execute("select key from intents where message_id = %s", (msg["message_id"],)).fetchone()[0]
        # The same payment re-sent under a new message id has a row of its
        # own: the body is the one first frozen under the key.
        # mutant:frozen-row
        frozen = conn.execute("select payload from intents where key = %s order by seq limit 1", (key,)).fetchone()[0]
        # mutant> frozen = payload  # this delivery's body, not the frozen one
        # mutant:end
        status = conn.execute("select status from intents where key = %s order by status = 'done' desc limit 1", (key,)).fetchone()[0]
        if status == "done":
            return
        charge = charge_provider(frozen, key)
        conn.execute("update intents set status = 'done', charge_id = %s where key = %s", (charge, key))


def charge_provider(body, key):
    """Calls the provider with the body under the key; returns the charge id."""
    # mutant:provider-key
    headers = {"Idempotency-Key": key, "Content-Type": "application/json"}
    # mutant> headers = {"X-Request-Id": key, "Content-Type": "application/json"}  # the key is not passed on
    # mutant:end
    req = urllib.request.Request(os.environ["PROVIDER_URL"] + "/v1/charges", data=body.encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)["id"]

if __name__ == "__main__":
    main()
