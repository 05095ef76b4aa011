#!/usr/bin/env python3
"""The Python side of derive's exhaustive differential (exhaustive_test.go).

Reads one JSON object on stdin:
    {"alphabet": ["a", "\u0301", ...], "max_length": 4, "secret": "...",
     "tenant": "t", "workers": 2, "worker": 0, "detail": null | [block, ...]}

and enumerates every sequence of 1 to max_length symbols of the alphabet,
in blocks: the sequences of one length that share all but their last two
symbols (length 1 is one block). Blocks are numbered in order; this process
answers those whose number is `worker` modulo `workers`.

For each sequence s it computes every step the rules use, with the
reference's own code (reference_derive.py) for the rules and the key:
    NFC(s), s.lower(), s.strip(), s.isalnum(), the trim_lower rule, the
    pix_key rule, and the key of a pix.cobranca intent holding s as
    cliente_id (text), chave_pix_destino (pix_key) and referencia_intencao
    (trim).
A pix_key result that is not NFC gets "unnormalized-key" in place of the
key in the record (idemcheck refuses such keys, so there is no key of its
own to compare; the detail mode still gives the reference's key).

Without "detail" it prints one line per block: "BLOCK COUNT UNNORMALIZED
SHA256" (the digest of the block's records, each
"nfc\0lower\0strip\0isalnum\0trim_lower\0pix\0key\n" in UTF-8). With
"detail" it prints, for each listed block, one JSON line per sequence with
those fields and the reference's key.
"""
import hashlib
import itertools
import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_derive as ref  # noqa: E402

UNNORMALIZED = "unnormalized-key"


def blocks(alphabet, max_length):
    """Yields (number, prefix, tails) for every block, in order."""
    n = 0
    tails = {k: ["".join(t) for t in itertools.product(alphabet, repeat=k)] for k in (1, 2)}
    for length in range(1, max_length + 1):
        prefix_len = max(length - 2, 0)
        for prefix in itertools.product(alphabet, repeat=prefix_len):
            yield n, "".join(prefix), tails[length - prefix_len]
            n += 1


def payload(s):
    return {"cliente_id": s, "valor": "1", "chave_pix_destino": s, "referencia_intencao": s}


def steps(secret, tenant, s):
    """Every step's answer for s, as a dict (the detail mode)."""
    pix = ref.RULES["pix_key"](s)
    return {
        "s": s, "nfc": unicodedata.normalize("NFC", s), "lower": s.lower(), "strip": s.strip(),
        "isalnum": s.isalnum(), "trim_lower": ref.RULES["trim_lower"](s), "pix": pix,
        "pix_nfc": unicodedata.is_normalized("NFC", pix),
        "key": ref.derive_key(secret, tenant, "pix.cobranca", payload(s)),
    }


def digest(secret, tenant, prefix, tails):
    """The block's digest and its count of unnormalized pix_key values: the
    same steps as steps(), written out for speed (most of the test's time
    is spent here)."""
    normalize, is_normalized = unicodedata.normalize, unicodedata.is_normalized
    pix_key, trim_lower, derive_key = ref.RULES["pix_key"], ref.RULES["trim_lower"], ref.derive_key
    h = hashlib.sha256()
    unnormalized = 0
    for t in tails:
        s = prefix + t
        pix = pix_key(s)
        if is_normalized("NFC", pix):
            key = derive_key(secret, tenant, "pix.cobranca", payload(s))
        else:
            key = UNNORMALIZED
            unnormalized += 1
        h.update(f"{normalize('NFC', s)}\0{s.lower()}\0{s.strip()}\0{'1' if s.isalnum() else '0'}\0"
                 f"{trim_lower(s)}\0{pix}\0{key}\n".encode("utf-8"))
    return h.hexdigest(), unnormalized


def main():
    cfg = json.loads(sys.stdin.read())
    secret = cfg["secret"].encode()
    tenant = cfg["tenant"]
    workers, worker = cfg["workers"], cfg["worker"]
    detail = set(cfg["detail"]) if cfg.get("detail") is not None else None
    out = sys.stdout
    for n, prefix, tails in blocks(cfg["alphabet"], cfg["max_length"]):
        if detail is not None:
            if n not in detail:
                continue
            for t in tails:
                out.write(json.dumps(steps(secret, tenant, prefix + t)) + "\n")
            continue
        if n % workers != worker:
            continue
        sha, unnormalized = digest(secret, tenant, prefix, tails)
        out.write(f"{n} {len(tails)} {unnormalized} {sha}\n")
    out.flush()


if __name__ == "__main__":
    main()
