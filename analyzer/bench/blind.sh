#!/usr/bin/env bash
# blind.sh BIN LABELS OUTDIR measures `BIN lint` against labels made blind,
# before any run (issue 18): for each "#checkout REPO DIR PATTERNS…" line of
# LABELS it runs `BIN lint --format json PATTERNS` in
# $IDEMCHECK_BLIND_CHECKOUTS/DIR (default /work/ext/go) and writes
# OUTDIR/REPO.json, then scores every REPO.json with lintscore.py.
#
#   analyzer/bench/blind.sh /tmp/idemcheck analyzer/bench/labels/go-2026-12.tsv /tmp/blind-out
#
# The checkouts are public code at the commits the labels' .md file records;
# they stay outside the repository and are never committed. Lint's exit
# status is not this script's: 1 means findings, and 2 means some package
# did not load (its error is in the JSON's "errors"), which is recorded in
# OUTDIR/REPO.stderr and reported, not fatal, since the other packages'
# findings are still in the JSON. A checkout that is missing makes the run
# exit 2. The score's own status (0 only when every find is hit and no
# silent label is) is the script's status otherwise.
#
# Findings no label covers are not scored: judge them by hand (see the
# labels' -results.md file). LINTSCORE overrides the scorer's path;
# IDEMCHECK_BLIND_ONLY="repo …" lints only those repos (the JSON files of
# earlier runs in OUTDIR are kept and scored with them), so a long
# measurement can run in parts, each under its own lock.
set -euo pipefail

usage() { echo "usage: blind.sh BIN LABELS OUTDIR" >&2; exit 2; }
[ $# -eq 3 ] || usage
bin=$(realpath "$1") labels=$(realpath "$2") out=$3
[ -x "$bin" ] || { echo "blind.sh: $1 is not an executable idemcheck binary" >&2; exit 2; }
[ -f "$labels" ] || { echo "blind.sh: labels file $2 not found" >&2; exit 2; }
root=${IDEMCHECK_BLIND_CHECKOUTS:-/work/ext/go}
score=${LINTSCORE:-/work/shared/tools/lintscore.py}
[ -f "$score" ] || { echo "blind.sh: scorer $score not found (set LINTSCORE)" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")

checkouts=$(grep -P '^#checkout\t' "$labels" || true)
[ -n "$checkouts" ] || { echo "blind.sh: $2 has no #checkout lines" >&2; exit 2; }

# Modules the checkouts pull are taken as go.sum pins them; -mod=mod lets a
# checkout with a vendor tree that lacks large files use the module cache.
export GOFLAGS=-mod=mod

missing=0
only=" ${IDEMCHECK_BLIND_ONLY:-} "
while IFS=$'\t' read -r _ repo dir patterns; do
	if [ "$only" != "  " ] && [[ $only != *" $repo "* ]]; then
		continue
	fi
	if [ ! -d "$root/$dir" ]; then
		echo "blind.sh: checkout $root/$dir for $repo is missing (see the labels' .md for repo and commit)" >&2
		missing=1
		continue
	fi
	began=$SECONDS
	rc=0
	# shellcheck disable=SC2086 # patterns are a space-separated list
	# In a go.work workspace go accepts no -mod=mod: the workspace's own
	# modules and go.work.sum pin what it pulls.
	flags=$GOFLAGS
	[ -z "$(cd "$root/$dir" && GOFLAGS= go env GOWORK)" ] || flags=
	(cd "$root/$dir" && GOFLAGS=$flags "$bin" lint --format json $patterns) >"$out/$repo.json" 2>"$out/$repo.stderr" || rc=$?
	findings=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d.get("findings") or []), len(d.get("errors") or []))' "$out/$repo.json" 2>/dev/null || echo "? ?")
	echo "$repo: lint exit $rc, findings/unloaded packages: $findings, $((SECONDS - began))s"
done <<<"$checkouts"

rc=0
python3 "$score" "$labels" "$out" "$(basename "$labels" .tsv)" || rc=$?
[ $missing -eq 0 ] || exit 2
exit $rc
