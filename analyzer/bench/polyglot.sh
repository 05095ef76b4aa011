#!/usr/bin/env bash
# Times `idemcheck lint` on generated Python and TypeScript trees against
# what their users already run: `python3 -m pyflakes` (Debian
# python3-pyflakes; goal: lint ≤ 1×) and `tsc --noEmit` (npm typescript;
# goal: lint ≤ 0.5×), at 50k and 200k lines (goal: 200k ≤ 4× 50k).
#
#   analyzer/bench/polyglot.sh [LINES...]    # default: 50000 200000
#
# TSC names the tsc to run (default: node_modules/.bin/tsc under
# $BENCH_DIR, installed there with npm when missing). One run each, on
# a cold idemcheck (no cache is involved: the front ends parse every file).
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH_DIR="${BENCH_DIR:-${TMPDIR:-/tmp}/idemcheck-polyglot-bench}"
mkdir -p "$BENCH_DIR"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50000 200000)

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -m pyflakes --version >/dev/null 2>&1; then
  echo "bench: python3 -m pyflakes is missing: apt-get install python3-pyflakes" >&2
  exit 2
fi
TSC="${TSC:-$BENCH_DIR/node_modules/.bin/tsc}"
if [ ! -x "$TSC" ]; then
  (cd "$BENCH_DIR" && npm install --no-audit --no-fund --silent typescript >/dev/null)
fi

go build -o "$BENCH_DIR/idemcheck" .

# gen LANG LINES DIR: a tree of modules of ~500 lines that import each other,
# with handlers building keys (f-strings, dicts, helpers), some per attempt.
gen() {
  "$PY" - "$1" "$2" "$3" <<'PYGEN'
import os, sys
lang, lines, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(root, exist_ok=True)
per_func, funcs = 10, 50
mods = max(1, lines // (per_func * funcs))
for m in range(mods):
    prev = m - 1 if m else 0
    if lang == "python":
        out = ["import uuid", "import requests", f"from .m{prev} import helper0 as prev_helper", ""]
        for f in range(funcs):
            out += [
                f"def helper{f}(order, n):",
                f"    base = f\"{{order['id']}}-{f}-{{n}}\"",
                "    body = {\"amount\": order[\"cents\"], \"ref\": base}",
                "    if n % 2 == 0:",
                "        key = base",
                "    else:",
                "        key = str(uuid.uuid4()) if n > 7 else prev_helper(order, n - 1)",
                "    requests.post(\"https://p.example/v1/c\", json=body, headers={\"Idempotency-Key\": key})",
                "    return base",
                "",
            ]
        path = os.path.join(root, f"m{m}.py")
    else:
        out = ['import { randomUUID } from "crypto";', f'import {{ helper0 as prevHelper }} from "./m{prev}";', ""]
        for f in range(funcs):
            out += [
                f"export function helper{f}(order: {{ id: string; cents: number }}, n: number): string {{",
                f"  const base = `${{order.id}}-{f}-${{n}}`;",
                "  const body = { amount: order.cents, ref: base };",
                "  let key: string;",
                "  if (n % 2 === 0) { key = base; } else { key = n > 7 ? randomUUID() : prevHelper(order, n - 1); }",
                "  void fetch(\"https://p.example/v1/c\", { method: \"POST\", body: JSON.stringify(body), headers: { \"Idempotency-Key\": key } });",
                "  return base;",
                "}",
                "",
                "",
            ]
        path = os.path.join(root, f"m{m}.ts")
    with open(path, "w") as fh:
        fh.write("\n".join(out))
if lang == "python":
    open(os.path.join(root, "__init__.py"), "w").close()
else:
    with open(os.path.join(root, "tsconfig.json"), "w") as fh:
        fh.write('{"compilerOptions": {"target": "es2022", "module": "nodenext", "strict": true, "noEmit": true, "types": [], "lib": ["es2022", "dom"], "skipLibCheck": true}, "include": ["*.ts"]}\n')
PYGEN
}

# secs CMD...: wall seconds of one run (exit status ignored: lint exits 1 on
# findings, pyflakes and tsc on what they report).
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l | xargs printf '%.2f'
}

ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }

printf '%-10s %8s %8s %10s %6s %8s %8s %10s %6s\n' lines py-lint pyflakes ratio goal ts-lint tsc ratio goal
declare -A pylint tslint
for n in "${sizes[@]}"; do
  gen python "$n" "$BENCH_DIR/py$n/pkg"
  gen typescript "$n" "$BENCH_DIR/ts$n"
  lp=$(secs "$BENCH_DIR/idemcheck" lint --lang python "$BENCH_DIR/py$n/...")
  pf=$(secs "$PY" -m pyflakes "$BENCH_DIR/py$n")
  lt=$(secs "$BENCH_DIR/idemcheck" lint --lang typescript "$BENCH_DIR/ts$n/...")
  tc=$(secs "$TSC" --noEmit -p "$BENCH_DIR/ts$n")
  pylint[$n]=$lp
  tslint[$n]=$lt
  printf '%-10s %8s %8s %10s %6s %8s %8s %10s %6s\n' "$n" "$lp" "$pf" "$(ratio "$lp" "$pf")x" "≤1x" "$lt" "$tc" "$(ratio "$lt" "$tc")x" "≤0.5x"
done
if [ ${#sizes[@]} -ge 2 ]; then
  a=${sizes[0]} b=${sizes[-1]}
  echo "growth $a → $b lines: python $(ratio "${pylint[$b]}" "${pylint[$a]}")x, typescript $(ratio "${tslint[$b]}" "${tslint[$a]}")x (goal ≤ 4x)"
fi
