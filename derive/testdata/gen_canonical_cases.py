#!/usr/bin/env python3
"""Generates canonical-cases.jsonl: JSON values and what Python's
json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
makes of them.  Run from derive/testdata: python3 gen_canonical_cases.py > canonical-cases.jsonl"""
import json
import random

rng = random.Random(7)
CHARS = (["a", "Z", "0", " ", '"', "\\", "/", "<", ">", "&", "'", "\x00", "\x01", "\x08", "\t", "\n",
          "\x0b", "\x0c", "\r", "\x1f", "\x7f", "\x80", "\u00e9", "\u2028", "\u2029", "\ufeff", "\uffff",
          "\ue000", "\U0001f600", "\U00010000", "\U0010ffff", "\u4e2d", "\u0130", "e\u0301"])


def rstr():
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 6)))


def rval(depth=0):
    r = rng.random()
    if depth > 2 or r < 0.4:
        return rstr()
    if r < 0.5:
        return rng.choice([0, -1, 7, 10**20, -(10**30), True, False, None])
    if r < 0.7:
        return [rval(depth + 1) for _ in range(rng.randint(0, 3))]
    return {rstr(): rval(depth + 1) for _ in range(rng.randint(0, 5))}


for _ in range(2000):
    v = {rstr(): rval() for _ in range(rng.randint(1, 6))}
    print(json.dumps({"in": json.dumps(v, ensure_ascii=True),
                      "out": json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)},
                     ensure_ascii=True))
