#!/bin/sh
# A broken handler in sh + psql + curl: the key carries an attempt counter
# that this process keeps (in a file), so every delivery of the same message
# computes another key and a redelivery after a lost response charges again.
set -eu
msg=$(cat)
count_file="${TMPDIR:-/tmp}/countkey.attempts"
n=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$count_file"
key="pay-42-attempt-$n"
curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$msg" "$PROVIDER_URL/v1/charges" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -c "insert into intents (message_id, payload, key, status) values ('m', '{}', '$key', 'done') on conflict do nothing"
