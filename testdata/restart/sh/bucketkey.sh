#!/bin/sh
# A broken handler in sh + psql + curl: the key is the message's payment
# plus a clock bucket (here 2 seconds wide; in real code a minute, an hour or
# a day: strftime('%Y-%m-%dT%H:%M'), date.today()). Redeliveries inside the
# bucket reuse the key; one that comes after the bucket ends charges again.
set -eu
msg=$(cat)
bucket=$(( $(date +%s) / 2 ))
key="pay-42-$bucket"
curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$msg" "$PROVIDER_URL/v1/charges" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -c "insert into intents (message_id, payload, key, status) values ('m', '{}', '$key', 'done') on conflict do nothing"
