#!/usr/bin/env bash
# lint-vs-vet.sh compares `idemcheck lint ./...` with `go vet ./...` on a
# writable copy of github.com/jackc/pgx/v5 from the module cache, first run
# (empty build cache) and re-run (unchanged code), and prints the ratios.
#
#   analyzer/bench/lint-vs-vet.sh [pgx version]    # default v5.12.0
#
# Goals (issue 3): first run <= 1.5x go vet, re-run <= 3x go vet's re-run.
# Each tool gets its own fresh GOCACHE, so both first runs compile the same
# dependencies from scratch, as a CI job without a cache does. Exit status 1
# when a goal is missed.
set -euo pipefail

version=${1:-v5.12.0}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

go build -o "$work/idemcheck" "$root"

src=$(go mod download -json "github.com/jackc/pgx/v5@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$src" ] || { echo "cannot download github.com/jackc/pgx/v5@$version" >&2; exit 2; }
cp -r "$src" "$work/pgx"
chmod -R u+w "$work/pgx"
cd "$work/pgx"
go mod download

# nanos runs a command and prints its wall-clock time in nanoseconds. The
# exit status is ignored: go vet reports pgx's own vet findings.
nanos() {
	local start end
	start=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	end=$(date +%s%N)
	echo $((end - start))
}

export GOFLAGS=-mod=mod
vet_first=$(GOCACHE="$work/cache-vet" nanos go vet ./...)
vet_rerun=$(GOCACHE="$work/cache-vet" nanos go vet ./...)
lint_first=$(GOCACHE="$work/cache-lint" nanos "$work/idemcheck" lint ./...)
lint_rerun=$(GOCACHE="$work/cache-lint" nanos "$work/idemcheck" lint ./...)

awk -v v="$version" -v vf="$vet_first" -v vr="$vet_rerun" -v lf="$lint_first" -v lr="$lint_rerun" 'BEGIN {
	first = lf / vf; rerun = lr / vr
	printf "pgx %s: idemcheck lint / go vet, first run: %.2fx (goal <= 1.5x)\n", v, first
	printf "pgx %s: idemcheck lint / go vet, re-run:    %.2fx (goal <= 3x)\n", v, rerun
	exit !(first <= 1.5 && rerun <= 3)
}'
