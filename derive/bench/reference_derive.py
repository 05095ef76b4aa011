#!/usr/bin/env python3
"""A straightforward Python implementation of idemcheck's key derivation
(schema version 1), used as the baseline of the batch benchmark.

    IDEMPOTENCY_HMAC_KEY=... python3 reference_derive.py < intents.jsonl > keys.jsonl
    python3 reference_derive.py --check-vectors ../../testdata/derive-v1.jsonl

Input and output lines have the same shape as `idemcheck derive --batch`.
It applies the same rules, including idemcheck's deliberate refusals
(sub-cent amounts, non-integer cliente_id, odd amount strings), so both
sides compute the same function on the same JSONL. pix_key is the
reference's rule exactly (no NFC after the characters are dropped): idemcheck
refuses the keys it leaves non-NFC, and the differential tests count those
refusals.
"""
import hashlib
import hmac
import json
import os
import re
import sys
import unicodedata
from decimal import Decimal

VERSION = 1
SCHEMA = {
    "pix.cobranca": [("cliente_id", "text"), ("valor", "cents"),
                     ("chave_pix_destino", "pix_key"), ("referencia_intencao", "trim")],
    "email.cobranca": [("cliente_id", "text"), ("referencia_intencao", "trim"),
                       ("template", "trim_lower")],
}
AMOUNT = re.compile(r"[ \t]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t]*\Z")


def text(v):
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise ValueError("text: want a string or an integer")
    return v if isinstance(v, str) else str(v)


def cents(v):
    if isinstance(v, bool) or v is None or not isinstance(v, (int, float, str)):
        raise ValueError("cents: want an amount")
    if isinstance(v, str) and not AMOUNT.match(v):
        raise ValueError("cents: not a plain decimal")
    d = Decimal(str(v).strip(" \t")) * 100
    if not d.is_finite() or d != d.to_integral_value():
        raise ValueError("cents: fraction of a cent")
    return str(int(d))


def string(v):
    if not isinstance(v, str):
        raise ValueError("want a string")
    return v


def pix_key(v):
    s = unicodedata.normalize("NFC", string(v)).strip().lower()
    return s if "@" in s else "".join(c for c in s if c.isalnum())


RULES = {
    "text": text,
    "cents": cents,
    "pix_key": pix_key,
    "trim": lambda v: string(v).strip(),
    "trim_lower": lambda v: string(v).strip().lower(),
}


def canonical(tenant, action, payload):
    p = {name: RULES[rule](payload[name]) for name, rule in SCHEMA[action]}
    return json.dumps({"t": tenant, "a": action, "v": VERSION, "p": p},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def derive_key(secret, tenant, action, payload):
    return hmac.new(secret, canonical(tenant, action, payload), hashlib.sha256).hexdigest()


def batch(secret, inp, out):
    failed = 0
    for n, line in enumerate(inp, 1):
        res = {}
        try:
            obj = json.loads(line)
            if "id" in obj:
                res["id"] = obj["id"]
            payload = obj["payload"]
            if isinstance(payload, str):
                payload = json.loads(payload)
            res["key"] = derive_key(secret, obj["tenant"], obj["action"], payload)
        except Exception as e:  # a bad line never stops the batch
            res["error"] = f"line {n}: {type(e).__name__}: {e}"
            failed += 1
        out.write(json.dumps(res, ensure_ascii=False, separators=(",", ":")) + "\n")
    return failed


def check_vectors(path):
    bad = 0
    for line in open(path, encoding="utf-8"):
        v = json.loads(line)
        try:
            payload = json.loads(v["payload_json"])
            c = canonical(v["tenant"], v["action"], payload)
            key = hmac.new(v["secret"].encode(), c, hashlib.sha256).hexdigest()
        except Exception:
            key = None
        want = v.get("key")
        if key != want:
            bad += 1
            print(f"{v['name']}: got {key}, want {want}", file=sys.stderr)
    return bad


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check-vectors":
        sys.exit(1 if check_vectors(sys.argv[2]) else 0)
    secret = os.environ.get("IDEMPOTENCY_HMAC_KEY", "").encode()
    if not secret:
        sys.exit("reference_derive.py: IDEMPOTENCY_HMAC_KEY is empty")
    sys.exit(1 if batch(secret, sys.stdin, sys.stdout) else 0)


if __name__ == "__main__":
    main()
