#!/bin/sh
# A broken handler in sh + psql + curl: the key is drawn in the attempt
# (the clock), so a redelivery after a lost response charges again.
set -eu
msg=$(cat)
key="pay-$(date +%s%N)-$$"
payload=$(psql -X -q -t -A -v msg="$msg" -c "select (:'msg'::jsonb->'payment')::text" 2>/dev/null || true)
[ -n "$payload" ] || payload=$(printf '%s' "$msg")
curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$payload" "$PROVIDER_URL/v1/charges" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -c "insert into intents (message_id, payload, key, status) values ('m', '{}', '$key', 'done') on conflict do nothing"
