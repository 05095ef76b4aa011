#!/usr/bin/env bash
# lint-vs-vet.sh compares `idemcheck lint ./...` with `go vet ./...`, first
# run (empty build cache) and re-run (unchanged code), on three code bases:
#
#   pgx     github.com/jackc/pgx/v5 (a driver: few dependencies)
#   xtools  golang.org/x/tools v0.52.0 (216 packages)
#   heavy   a payment service written by heavy-service.sh, whose go.mod pulls
#           an ORM, cloud SDKs, a workflow engine and a payment SDK
#
#   analyzer/bench/lint-vs-vet.sh [pgx|xtools|heavy ...]   # default: all
#
# Goals (issues 3 and 10): first run <= 1.5x go vet everywhere, re-run <=
# 3x go vet's re-run on pgx. Each tool gets its own fresh GOCACHE, so both
# first runs compile and type-check the same dependencies from scratch, as
# a CI job without a cache does. Module downloads happen before timing.
# Exit status 1 when a goal is missed. The code bases come from the module
# proxy into a temporary directory and are never committed.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

go build -o "$work/idemcheck" "$root"
export GOFLAGS=-mod=mod

# measure runs a command and prints its wall-clock and CPU (user + system,
# children included) seconds. CPU time is printed too because on a shared
# machine wall-clock ratios measure the neighbours. The exit status is
# ignored: go vet reports the code bases' own vet findings.
measure() {
	local out=$work/time.out
	/usr/bin/time -f "%e %U %S" -o "$out" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$out" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
}

# module_copy copies a module version from the module cache to $work/$2.
module_copy() {
	local src
	src=$(go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "cannot download $1" >&2; exit 2; }
	cp -r "$src" "$work/$2"
	chmod -R u+w "$work/$2"
}

failed=0

# bench NAME DIR FIRST_GOAL [RERUN_GOAL] times both tools in DIR.
bench() {
	local name=$1 dir=$2 first_goal=$3 rerun_goal=${4:-}
	cd "$dir"
	go mod download >/dev/null 2>&1 || true
	local vf vr lf lr
	vf=$(GOCACHE="$work/cache-vet-$name" measure go vet ./...)
	vr=$(GOCACHE="$work/cache-vet-$name" measure go vet ./...)
	lf=$(GOCACHE="$work/cache-lint-$name" measure "$work/idemcheck" lint ./...)
	lr=$(GOCACHE="$work/cache-lint-$name" measure "$work/idemcheck" lint ./...)
	awk -v n="$name" -v vf="$vf" -v vr="$vr" -v lf="$lf" -v lr="$lr" -v fg="$first_goal" -v rg="$rerun_goal" 'BEGIN {
		split(vf, VF, " "); split(vr, VR, " "); split(lf, LF, " "); split(lr, LR, " ")
		first = LF[1] / VF[1]; rerun = LR[1] / VR[1]
		printf "%-7s first run: lint %6.1fs / vet %6.1fs = %.2fx (goal <= %sx); CPU %.0fs / %.0fs = %.2fx\n", n, LF[1], VF[1], first, fg, LF[2], VF[2], LF[2] / VF[2]
		printf "%-7s re-run:    lint %6.1fs / vet %6.1fs = %.2fx%s; CPU %.1fs / %.1fs = %.2fx\n", n, LR[1], VR[1], rerun, (rg == "" ? "" : " (goal <= " rg "x)"), LR[2], VR[2], LR[2] / VR[2]
		exit !(first <= fg && (rg == "" || rerun <= rg))
	}' || failed=1
	cd "$work"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(pgx xtools heavy)
for t in "${targets[@]}"; do
	case $t in
	pgx)
		module_copy github.com/jackc/pgx/v5@v5.12.0 pgx
		bench pgx "$work/pgx" 1.5 3
		;;
	xtools)
		module_copy golang.org/x/tools@v0.52.0 xtools
		bench xtools "$work/xtools" 1.5
		;;
	heavy)
		"$root/analyzer/bench/heavy-service.sh" "$work/heavy" >/dev/null
		bench heavy "$work/heavy" 1.5
		;;
	*)
		echo "unknown code base $t (want pgx, xtools or heavy)" >&2
		exit 2
		;;
	esac
done
exit $failed
