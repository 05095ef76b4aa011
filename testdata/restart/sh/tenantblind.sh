#!/bin/sh
# A handler whose key leaves the tenant out: it is taken over the payment
# alone. Every redelivery and re-send of one tenant's payment finds its
# row, but two tenants that send the same payment (the same order
# reference, amount and Pix key) get one key, and the second tenant's
# charge is never made: the first's done row answers it.
set -eu
msg=$(cat)
psql="psql -X -q -t -A -v ON_ERROR_STOP=1"
key=$($psql -v msg="$msg" <<'SQL'
\getenv secret IDEMPOTENCY_HMAC_KEY
select encode(sha256(convert_to(:'secret' || ((:'msg'::jsonb)->'payment')::text, 'UTF8')), 'hex');
SQL
)
charged=$($psql -v msg="$msg" -v key="$key" <<'SQL'
insert into intents (message_id, payload, key)
select m->>'message_id', (m->'payment')::text, :'key' from (select :'msg'::jsonb as m) s
on conflict do nothing;
select count(*) from intents where key = :'key' and status = 'done';
SQL
)
[ "$charged" -gt 0 ] && exit 0
payload=$($psql -v key="$key" <<'SQL'
select payload from intents where key = :'key' order by seq limit 1;
SQL
)
curl -sS -f -o /dev/null -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$payload" "$PROVIDER_URL/v1/charges"
$psql -v key="$key" <<'SQL'
update intents set status = 'done' where key = :'key';
SQL
