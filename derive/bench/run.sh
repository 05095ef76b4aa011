#!/usr/bin/env bash
# Batch throughput of `idemcheck derive --batch` against a straightforward
# Python implementation of the same function (reference_derive.py), on the
# same generated JSONL, in one run. Prints keys/s for both and the ratio.
#
#   bash derive/bench/run.sh            # 200000 lines, best of 3 runs each
#   N=50000 RUNS=1 bash derive/bench/run.sh
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-200000}
RUNS=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export IDEMPOTENCY_HMAC_KEY=${IDEMPOTENCY_HMAC_KEY:-bench-secret-not-real}

go build -o "$tmp/idemcheck" ../..
python3 gen_intents.py "$N" > "$tmp/intents.jsonl"
# The baseline must compute the same function: check it on the vectors.
python3 reference_derive.py --check-vectors ../../testdata/derive-v1.jsonl

# best_ms CMD...: run CMD RUNS times (stdin intents, stdout to a file) and
# print the fastest wall time in milliseconds. Exit 1 means some lines were
# refused, which the generated input contains on purpose.
best_ms() {
  local out=$1; shift
  local best=
  for _ in $(seq "$RUNS"); do
    local t0 t1 rc=0
    t0=$(date +%s%N)
    "$@" < "$tmp/intents.jsonl" > "$out" 2>/dev/null || rc=$?
    t1=$(date +%s%N)
    if [ "$rc" -gt 1 ]; then echo "run.sh: $* failed with exit $rc" >&2; exit 2; fi
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

go_ms=$(best_ms "$tmp/go.jsonl" "$tmp/idemcheck" derive --batch)
py_ms=$(best_ms "$tmp/py.jsonl" python3 reference_derive.py)

# Same keys, same order, same lines refused.
python3 - "$tmp/go.jsonl" "$tmp/py.jsonl" <<'PY'
import json, sys
go = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
py = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(go) == len(py), (len(go), len(py))
diff = sum(1 for a, b in zip(go, py) if a.get("id") != b.get("id") or a.get("key") != b.get("key"))
refused = sum(1 for a in go if "error" in a)
print(f"lines: {len(go)}, refused: {refused}, differing from Python: {diff}")
sys.exit(1 if diff else 0)
PY

awk -v n="$N" -v g="$go_ms" -v p="$py_ms" -v cpus="$(nproc)" 'BEGIN {
  printf "go (idemcheck derive --batch, %d CPUs): %6d ms  %9.0f keys/s\n", cpus, g, n / (g / 1000)
  printf "python (reference_derive.py):        %6d ms  %9.0f keys/s\n", p, n / (p / 1000)
  printf "ratio: %.1fx (target >= 15x)\n", p / g
}'
