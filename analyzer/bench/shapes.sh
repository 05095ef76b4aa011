#!/usr/bin/env bash
# shapes.sh times `idemcheck lint ./...` against `go vet ./...` on program
# shapes written by shapegen (chains of 1-4 parameters, fan-out, fan-in,
# recursion, interfaces, closures, higher-order functions, method values),
# each at several sizes, and prints per shape the time at each size, the
# ratio to go vet and the growth exponent (the slope of log time over log
# size, by least squares).
#
#   analyzer/bench/shapes.sh [-sizes "1000 2000 5000 10000"] [SHAPE ...]   # default: all shapes
#
# Goals (issue 18): growth exponent <= 1.2 for every shape, and lint <= 5x
# go vet at 5,000 functions. Both tools share one GOCACHE warmed on a small
# module first, so the standard library is compiled and analyzed once and
# what is timed is the generated package. CPU seconds (user + system) are
# timed besides wall-clock, since the machine may be shared. Exit status 1
# when a goal is missed.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
sizes="1000 2000 5000 10000"
if [ "${1:-}" = "-sizes" ]; then
	sizes=$2
	shift 2
fi
shapes=("$@")
if [ ${#shapes[@]} -eq 0 ]; then
	shapes=(chain1 chain2 chain3 chain4 fanout fanin recursion interfaces closures higherorder methodvalues)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/idemcheck" "$root"
go build -o "$work/shapegen" "$root/analyzer/bench/shapegen"
export GOCACHE=$work/cache GOFLAGS= GOWORK=off

# cpu runs a command and prints its CPU seconds (children included); the
# exit status is ignored (lint exits 1 on its finding).
cpu() {
	/usr/bin/time -f "%U %S" -o "$work/time.out" "$@" >"$work/out" 2>&1 || true
	tail -n 1 "$work/time.out" | awk '{ printf "%.2f\n", $1 + $2 }'
}

"$work/shapegen" -shape chain1 -n 10 -dir "$work/warm"
(cd "$work/warm" && go vet ./... >/dev/null 2>&1 || true; "$work/idemcheck" lint ./... >/dev/null 2>&1 || true)

failed=0
printf '%-13s %6s %8s %8s %6s\n' shape n vet-cpu lint-cpu ratio
for s in "${shapes[@]}"; do
	points=""
	for n in $sizes; do
		dir=$work/$s-$n
		"$work/shapegen" -shape "$s" -n "$n" -dir "$dir"
		vet=$(cd "$dir" && cpu go vet ./...)
		lint=$(cd "$dir" && cpu "$work/idemcheck" lint ./...)
		if ! grep -q "1 finding" "$work/out"; then
			echo "$s at $n: lint did not report the one key:" >&2
			cat "$work/out" >&2
			failed=1
		fi
		ratio=$(awk -v l="$lint" -v v="$vet" 'BEGIN { printf "%.1f", (v > 0 ? l / v : 0) }')
		printf '%-13s %6d %8s %8s %6s\n' "$s" "$n" "$vet" "$lint" "$ratio"
		if [ "$n" = 5000 ] && awk -v r="$ratio" 'BEGIN { exit !(r > 5) }'; then
			failed=1
		fi
		points="$points $n:$lint"
		rm -rf "$dir"
	done
	exp=$(echo "$points" | tr ' ' '\n' | awk -F: 'NF == 2 && $2 > 0 { x = log($1); y = log($2); n++; sx += x; sy += y; sxx += x*x; sxy += x*y }
		END { if (n < 2 || n*sxx == sx*sx) { print "n/a" } else { printf "%.2f", (n*sxy - sx*sy) / (n*sxx - sx*sx) } }')
	printf '%-13s growth exponent %s\n' "$s" "$exp"
	if [ "$exp" != n/a ] && awk -v e="$exp" 'BEGIN { exit !(e > 1.2) }'; then
		failed=1
	fi
done
exit $failed
