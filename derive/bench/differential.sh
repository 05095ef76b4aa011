#!/usr/bin/env bash
# Differential test: idemcheck derive --batch against reference_derive.py on
# random hostile input. Every line must get the same key, or be refused by
# both. Needs python3; not part of `go test`.
#
#   bash derive/bench/differential.sh [LINES] [SEED]
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-100000}
SEED=${2:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export IDEMPOTENCY_HMAC_KEY=${IDEMPOTENCY_HMAC_KEY:-differential-secret}
go build -o "$tmp/idemcheck" ../..
python3 gen_random_intents.py "$N" "$SEED" > "$tmp/in.jsonl"
"$tmp/idemcheck" derive --batch < "$tmp/in.jsonl" > "$tmp/go.jsonl" 2>/dev/null || [ $? -eq 1 ]
python3 reference_derive.py < "$tmp/in.jsonl" > "$tmp/py.jsonl" || [ $? -eq 1 ]
python3 - "$tmp/go.jsonl" "$tmp/py.jsonl" "$tmp/in.jsonl" <<'PY'
import json, sys
go = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
py = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
src = open(sys.argv[3], encoding="utf-8").read().rstrip("\n").split("\n")
assert len(go) == len(py) == len(src), (len(go), len(py), len(src))
# A line Go refuses while Python gives a key is a deliberate refusal (see
# docs/derive.md; TestDifferential checks each has a reason); any other
# disagreement is a differing key.
refused = [i for i, (a, b) in enumerate(zip(go, py)) if "key" not in a and "key" in b]
bad = [i for i, (a, b) in enumerate(zip(go, py)) if "key" in a and a.get("key") != b.get("key")]
for i in bad[:10]:
    print(f"line {i+1}: go {go[i]} python {py[i]}\n  {src[i][:300]}")
print(f"lines: {len(go)}, keys: {sum('key' in a for a in go)}, refused where Python gives a key: {len(refused)}, differing: {len(bad)}")
sys.exit(1 if bad else 0)
PY
