#!/bin/sh
# A broken handler: no Idempotency-Key at all, so the provider executes
# every request it gets.
set -eu
msg=$(cat)
payload=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -v msg="$msg" <<'SQL'
select (:'msg'::jsonb->'payment')::text;
SQL
)
curl -sS -f -X POST -H 'Content-Type: application/json' --data "$payload" "$PROVIDER_URL/v1/charges" >/dev/null
