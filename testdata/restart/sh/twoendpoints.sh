#!/bin/sh
# Two endpoints, a hold then a capture. The hold's key comes from the
# message, the capture's is drawn per attempt: only the capture duplicates.
set -eu
msg=$(cat)
id=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -v msg="$msg" <<'SQL'
select (:'msg'::jsonb)->>'message_id';
SQL
)
payload=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -v msg="$msg" <<'SQL'
select (:'msg'::jsonb->'payment')::text;
SQL
)
curl -sS -f -X POST -H "Idempotency-Key: hold-$id" --data "$payload" "$PROVIDER_URL/v1/holds" >/dev/null
curl -sS -f -X POST -H "Idempotency-Key: capture-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" \
  --data "$payload" "$PROVIDER_URL/v1/captures" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -v id="$id" <<'SQL'
insert into intents (message_id, payload, key, status) values (:'id', '{}', 'hold', 'done') on conflict do nothing;
SQL
