#!/usr/bin/env python3
"""Writes N batch lines (default 200000) for the benchmark to stdout:
{"id": n, "tenant": ..., "action": ..., "payload": {...}}.  About 1% of the
lines are refused on purpose (missing field, sub-cent amount, unknown action)."""
import json
import random
import sys

rng = random.Random(2026)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
TENANTS = ["acme", "t1", "Tenant-É", "loja-42", "😀shop"]
KEYS = [" José@Ex.com ", "+55 (11) 95318-3839", "123.456.789-09", "12.345.678/0001-95",
        "C96FA758-02B0-87F8-06FA-ADB10A248CFF", "ß83533İ", "maria.silva@bücher.de"]


def amount():
    r = rng.random()
    if r < 0.4:
        return rng.randint(1, 99999)
    if r < 0.7:
        return round(rng.uniform(1, 99999), 2)
    return f"{rng.randint(1, 99999)}.{rng.randint(0, 99):02d}"


for n in range(N):
    if rng.random() < 0.7:
        action = "pix.cobranca"
        payload = {"cliente_id": f"01J{rng.getrandbits(60):015X}" if rng.random() < 0.6 else rng.getrandbits(62),
                   "valor": amount(), "chave_pix_destino": rng.choice(KEYS),
                   "referencia_intencao": f" NF-{rng.randint(0, 999999):06d} "}
    else:
        action = "email.cobranca"
        payload = {"cliente_id": f"01J{rng.getrandbits(60):015X}",
                   "referencia_intencao": f"NF-{rng.randint(0, 999999):06d}",
                   "template": rng.choice([" LEMBRETE", "Cobranca_V2 ", "lembréte"])}
    if rng.random() < 0.3:
        payload["updated_at"] = "2026-11-%02dT10:00:00Z" % rng.randint(1, 28)
        payload["message_id"] = f"wamid.{rng.randint(0, 10**10):010d}"
    r = rng.random()
    if r < 0.004:
        payload.pop("cliente_id")
    elif r < 0.008 and action == "pix.cobranca":
        payload["valor"] = "10.005"
    elif r < 0.01:
        action = "pix.estorno"
    line = {"id": n, "tenant": rng.choice(TENANTS), "action": action, "payload": payload}
    print(json.dumps(line, ensure_ascii=False))
