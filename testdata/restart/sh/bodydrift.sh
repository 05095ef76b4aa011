#!/bin/sh
# A broken handler: a stable key, but the body changes in every attempt (a
# timestamp in it), so the provider answers the redelivery with 422.
set -eu
msg=$(cat)
id=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -v msg="$msg" <<'SQL'
select (:'msg'::jsonb)->>'message_id';
SQL
)
code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H "Idempotency-Key: $id" \
  --data "{\"valor\":\"150.00\",\"requested_at\":\"$(date +%s)$$\"}" "$PROVIDER_URL/v1/charges")
echo "provider answered $code" >&2
