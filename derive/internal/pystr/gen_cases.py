#!/usr/bin/env python3
"""Generates testdata/cases.jsonl: strings with CPython's strip(), lower(),
and per-rune isalnum() answers, so the Go tests check against real Python
without needing it at test time.  Run: python3 gen_cases.py > testdata/cases.jsonl"""
import json
import random

rng = random.Random(20261129)
ALPHABET = (
    list("aAzZ09 _-.@\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x01\x7f")
    + ["\u00a0", "\u0085", "\u1680", "\u2000", "\u2009", "\u200a", "\u200b", "\u2028", "\u2029",
       "\u202f", "\u205f", "\u3000", "\ufeff", "\u180e"]
    + ["\u0130", "\u0131", "\u00df", "\ufb01", "\u1e9e", "\u01c5", "\u2126", "\u212a", "\u00bd",
       "\u0663", "\uff11", "\u4e2d", "\U0001f600", "\u00e9", "e\u0301", "\u0345", "\u1f88"]
    + ["\u03a3", "\u03a3", "\u03c3", "\u0391", "\u0392", "'", "\u00ad", "\u0301", ".", "\u0300",
       "\U00010400", "\U0001d400", "\u2160", "\u24b6"]
)
cases = set(["", "ΑΣ", "ΑΣ Α", "Σ", "ΑΣΑ", "Α'Σ", "ΑΣ'", "ΑΣ'Α", "Α\u00adΣ\u00ad", "İ", "İstanbul",
             "ὈΔΥΣΣΕΎΣ", " \u3000x\u3000 ", "\x1c\x1dx\x1e\x1f", "\u200bx\u200b", "\ufeffx"])
while len(cases) < 3000:
    n = rng.randint(1, 12)
    cases.add("".join(rng.choice(ALPHABET) for _ in range(n)))
for s in sorted(cases):
    print(json.dumps({"s": s, "strip": s.strip(), "lower": s.lower(),
                      "alnum": [c.isalnum() for c in s], "space": [c.isspace() for c in s]},
                     ensure_ascii=True))
