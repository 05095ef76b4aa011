#!/usr/bin/env bash
# Share of batch CPU time spent in HMAC-SHA256 itself (the physical floor),
# measured two ways in one run:
#  1. CPU profile of BenchmarkRunBatch/workers=1: samples under crypto/hmac.
#  2. Benchmark ratio: BenchmarkHMACOnly (same-size message) / RunBatch per line.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/derive.test" .
"$tmp/derive.test" -test.run '^$' -test.bench 'RunBatch/workers=1$|HMACOnly' -test.benchtime=2s \
  -test.count=3 | tee "$tmp/bench.txt" | grep '^Benchmark'
# The profile covers the batch benchmark alone.
"$tmp/derive.test" -test.run '^$' -test.bench 'RunBatch/workers=1$' -test.benchtime=3s \
  -test.cpuprofile "$tmp/cpu.prof" > /dev/null
go tool pprof -top -cum "$tmp/derive.test" "$tmp/cpu.prof" 2>/dev/null > "$tmp/top.txt"
batch=$(awk '$NF ~ /derive.\(\*Schema\).RunBatch$/ {print $4}' "$tmp/top.txt" | tr -d 's' | head -1)
hmac=$(awk '$NF ~ /crypto\/internal\/fips140\/hmac.\(\*HMAC\).(Write|Sum|Reset)$/ {gsub("s","",$4); s+=$4} END {print s}' "$tmp/top.txt")
awk -v b="$batch" -v h="$hmac" 'BEGIN { if (b > 0) printf "profile: HMAC %.2fs of %.2fs in RunBatch = %.0f%%\n", h, b, 100*h/b }'
awk '/RunBatch\/workers=1/ {r[n++]=$3} /HMACOnly/ {h[m++]=$3}
  END { asort(r); asort(h); rm=r[int((n+1)/2)]; hm=h[int((m+1)/2)];
        printf "benchmarks (median of %d): batch %.0f ns/line, HMAC alone %.0f ns = %.0f%%\n", n, rm, hm, 100*hm/rm }' "$tmp/bench.txt"
