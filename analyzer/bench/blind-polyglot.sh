#!/usr/bin/env bash
# Scores `idemcheck lint` on public Python and TypeScript services against
# hand labels made blind, before any run (issue 19):
#
#   analyzer/bench/blind-polyglot.sh BIN LABELS OUTDIR
#
# BIN is a cgo build of idemcheck (`go build -o /tmp/idemcheck-poly .`),
# LABELS the TSV of analyzer/bench/labels/ (its .md names each repository
# and commit), OUTDIR where REPO.json (lint's JSON) and REPO.stderr go. Each
# labelled repo is a checkout in $POLY_DIR/REPO (default /work/ext/poly),
# made with `git archive` of the commit the .md names; checkouts are never
# committed. lint runs in each checkout as a user would run it there:
# `BIN lint --format json --lang python,typescript ./...`. Then
# /work/shared/tools/lintscore.py (or $LINTSCORE) prints misses, noisy
# labels and the summary; its exit status is the script's. Findings no
# label covers are listed for judging by hand.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: blind-polyglot.sh BIN LABELS OUTDIR" >&2; exit 2; }
bin=$(realpath "$1") labels=$(realpath "$2") out=$3
poly=${POLY_DIR:-/work/ext/poly}
score=${LINTSCORE:-/work/shared/tools/lintscore.py}
mkdir -p "$out"
out=$(realpath "$out")

repos=$(awk -F'\t' '!/^#/ && NF >= 7 { print $1 }' "$labels" | sort -u)
for repo in $repos; do
  dir=$poly/$repo
  [ -d "$dir" ] || { echo "blind-polyglot: no checkout of $repo at $dir: git archive the commit the labels' .md names there" >&2; exit 2; }
  t0=$(date +%s.%N)
  # lint exits 1 on findings; 2 (a file it could not read) is kept in stderr.
  (cd "$dir" && "$bin" lint --format json --lang python,typescript ./... >"$out/$repo.json" 2>"$out/$repo.stderr") || true
  t1=$(date +%s.%N)
  n=$(python3 -c 'import json,sys; d,_=json.JSONDecoder().raw_decode(open(sys.argv[1]).read() or "{}"); print(len(d.get("findings") or []))' "$out/$repo.json" 2>/dev/null || echo "?")
  printf '%-12s %4s findings  %6.1fs\n' "$repo" "$n" "$(echo "$t1 - $t0" | bc -l)"
done

# every finding, for judging by hand (rule file:line message)
python3 - "$out" <<'PY' >"$out/findings.txt"
import json, os, sys
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    if not name.endswith('.json'):
        continue
    try:
        doc, _ = json.JSONDecoder().raw_decode(open(os.path.join(d, name)).read())
    except Exception:
        doc = {}
    for f in doc.get('findings') or []:
        print(f"{name[:-5]}\t{f['rule']}\t{f['file']}:{f['line']}\t{f['message'][:160]}")
PY
echo "all findings: $out/findings.txt ($(wc -l <"$out/findings.txt"))"
python3 "$score" "$labels" "$out" "blind polyglot"
