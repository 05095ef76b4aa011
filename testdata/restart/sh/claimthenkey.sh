#!/bin/sh
# Two back-to-back commits with a bug between them: the first claims the
# message, the second stores the key to charge with. A redelivery that finds
# the claim without a key takes it for another worker's and acknowledges
# without charging: the charge is lost, but only when the crash falls after
# the first commit and before the second.
set -eu
msg=$(cat)
psql="psql -X -q -t -A -v ON_ERROR_STOP=1"
state=$($psql -v msg="$msg" <<'SQL'
select case when k.key is not null then 'keyed' when c.message_id is not null then 'claimed' else 'new' end
from (select (:'msg'::jsonb)->>'message_id' as id) m
left join claims c on c.message_id = m.id
left join keys k on k.message_id = m.id;
SQL
)
# Claimed but not keyed: "another worker has it" (the bug).
[ "$state" = claimed ] && exit 0
# The secret stays in the environment (\getenv, psql 15+), out of ps.
key=$($psql -v msg="$msg" <<'SQL'
\getenv secret IDEMPOTENCY_HMAC_KEY
insert into claims (message_id) values ((:'msg'::jsonb)->>'message_id') on conflict do nothing;
insert into keys (message_id, key)
select m->>'message_id', encode(sha256(convert_to(:'secret' || (m->'payment')::text, 'UTF8')), 'hex')
from (select :'msg'::jsonb as m) s
on conflict do nothing;
select key from keys where message_id = (:'msg'::jsonb)->>'message_id';
SQL
)
payload=$($psql -v msg="$msg" <<'SQL'
select (:'msg'::jsonb->'payment')::text;
SQL
)
curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
  --data "$payload" "$PROVIDER_URL/v1/charges" >/dev/null
