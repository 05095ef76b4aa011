#!/usr/bin/env python3
"""Writes N random batch lines (argv[1]) with seed argv[2]: strings from an
alphabet of the characters that break normalizations (Python whitespace,
İ, ß, ligatures, final sigma, combining marks, jamo, astral code points),
amounts in every spelling, wrong types, missing fields, unknown actions, and
payloads both embedded and as JSON text.  Used by differential.sh."""
import json, random, sys
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
N = int(sys.argv[1])
POOL = list("aAzZ09 _-.@/\\\"'<>&\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x01\x00\x7f") + ["\u00a0","\u0085","\u1680","\u2000","\u200b","\u2028","\u2029","\u202f","\u205f","\u3000","\ufeff","\u0130","\u0131","\u00df","\ufb01","\u1e9e","\u01c5","\u2126","\u212a","\u00bd","\u0663","\uff11","\u4e2d","\U0001f600","\u00e9","e\u0301","\u0345","\u1f88","\u03a3","\u03c3","\u0391","\u00ad","\u0301","\u0300","\U00010400","\u2160","\u24b6","\u1100","\u1161","J\u030c","\u0149","\u1e96","\u0587","\ufb00"]
def rstr(n=8):
    s = "".join(rng.choice(POOL) for _ in range(rng.randint(0, n)))
    if rng.random() < 0.2:
        s += "".join(chr(rng.choice([rng.randint(0x20, 0xd7ff), rng.randint(0xe000, 0x10ffff)])) for _ in range(3))
    return s
AMOUNTS = ["1e-2","92193.9","","abc","1_000","١٠","Infinity","NaN","1,50","1/3","0.001","10.005","-0","2.50e1","1E3","5E-1","12.3400","+5.00"," 7.10 ","-3.25",".5","5.","\n5","5\u00a0","1e400","-1e-2","0.10","1E+2","0e5","00012.50","1e4300","1e4299"]
def amount():
    r = rng.random()
    if r < 0.3: return rng.choice(AMOUNTS)
    if r < 0.5: return rng.randint(-10**6, 10**12)
    if r < 0.7: return round(rng.uniform(-1000, 99999), rng.choice([0,1,2,3]))
    if r < 0.8: return rng.choice([True, False, None, [], {}, 1e300, 1e-7, 0.1, 2.5e-3])
    return f"{rng.randint(0, 99999)}.{rng.randint(0, 999)}"
def anyval():
    return rng.choice([rstr(), rng.randint(-10**20, 10**20), 1.5, 2.0, True, None, [1], {"a": 1}])
for n in range(N):
    action = rng.choice(["pix.cobranca", "email.cobranca", "pix.cobranca", "PIX.cobranca", ""])
    p = {}
    for f in ["cliente_id", "valor", "chave_pix_destino", "referencia_intencao", "template", "updated_at"]:
        if rng.random() < 0.93:
            if f == "valor": p[f] = amount()
            elif f == "cliente_id": p[f] = rng.choice([rstr(), rng.randint(-10**19, 10**19), rstr(), anyval()])
            else: p[f] = rstr() if rng.random() < 0.95 else anyval()
    line = {"id": n, "tenant": rstr(5), "action": action}
    if rng.random() < 0.5:
        line["payload"] = p
    else:
        line["payload"] = json.dumps(p, ensure_ascii=rng.random() < 0.5)
    print(json.dumps(line, ensure_ascii=rng.random() < 0.5))
