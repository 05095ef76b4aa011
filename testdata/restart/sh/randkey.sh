#!/bin/sh
# A broken handler: the key is drawn at random in every attempt (as
# uuid.New() would), and recording the charge is its last act, so a crash
# right after that commit redelivers and charges again.
set -eu
msg=$(cat)
key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
payload=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -v msg="$msg" <<'SQL'
select (:'msg'::jsonb->'payment')::text;
SQL
)
curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$payload" "$PROVIDER_URL/v1/charges" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -v msg="$msg" -v key="$key" <<'SQL'
insert into intents (message_id, payload, key, status) values ((:'msg'::jsonb)->>'message_id', '{}', :'key', 'done') on conflict do nothing;
SQL
