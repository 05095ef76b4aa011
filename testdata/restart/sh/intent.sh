#!/bin/sh
# A correct handler in sh + psql + curl: write the intent, derive the key
# from the frozen payload, call the provider, record the result.
set -eu
msg=$(cat)
psql="psql -X -q -t -A -v ON_ERROR_STOP=1"

# The secret stays in the environment (\getenv, psql 15+): a -v argument
# would show it to everyone running ps. The key is taken over the tenant
# and the payment normalized first (jsonb: member order and spacing; the
# Pix key's CPF or CNPJ punctuation; the amount in cents), so the same
# payment spelled another way (123.456.789-09 or 12345678909, 150 or
# "150.00") is the same key, and another tenant's same payment is not.
key=$($psql -v msg="$msg" <<'SQL'
\getenv secret IDEMPOTENCY_HMAC_KEY
select encode(sha256(convert_to(:'secret' || jsonb_build_object(
-- mutant:tenant-scope
         'tenant', m->>'tenant',
-- mutant> -- the key leaves the tenant out: another tenant's same payment gets this one's key
-- mutant:end
         'payment',
-- mutant:normalize
         m->'payment'
         || jsonb_build_object('valor', round((m->'payment'->>'valor')::numeric * 100)::bigint)
         || case when m->'payment'->>'chave_pix_destino' ~ '^[0-9./ -]+$'
                 then jsonb_build_object('chave_pix_destino', regexp_replace(m->'payment'->>'chave_pix_destino', '[^0-9]', '', 'g'))
                 else '{}'::jsonb end
-- mutant> m->'payment' -- as spelled
-- mutant:end
       )::text, 'UTF8')), 'hex')
from (select :'msg'::jsonb as m) s;
SQL
)
# mutant:persist-first
# mutant> # the charge goes out before the intent is written or read
# mutant> payload=$($psql -v msg="$msg" <<'SQL'
# mutant> select (:'msg'::jsonb->'payment')::text;
# mutant> SQL
# mutant> )
# mutant> curl -sS -f -o /dev/null -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
# mutant>   --data "$payload" "$PROVIDER_URL/v1/charges"
# mutant:end
# The intent row is frozen once per message id; the key is read back from
# it.
key=$($psql -v msg="$msg" -v key="$key" <<'SQL'
insert into intents (message_id, payload, key)
select m->>'message_id', (m->'payment')::text, :'key'
from (select :'msg'::jsonb as m) s
-- mutant:on-conflict
on conflict (message_id) do nothing
-- mutant:end
;
select key from intents where message_id = (:'msg'::jsonb)->>'message_id';
SQL
)
status=$($psql -c "select status from intents where key = '$key' order by status = 'done' desc limit 1")
[ "$status" = done ] && exit 0
# mutant:frozen-row
# The payload the key was first frozen with: the same payment re-sent
# under a new message id, spelled another way, has a row of its own.
payload=$($psql -c "select payload from intents where key = '$key' order by seq limit 1")
# mutant> payload=$($psql -v msg="$msg" <<'SQL'
# mutant> select (:'msg'::jsonb->'payment')::text;
# mutant> SQL
# mutant> )
# mutant:end

# mutant:provider-key
keyheader="Idempotency-Key: $key"
# mutant> keyheader="X-Request-Id: $key" # the key is not passed on
# mutant:end
resp=$(curl -sS -f -X POST -H "$keyheader" -H 'Content-Type: application/json' \
  --data "$payload" "$PROVIDER_URL/v1/charges")
charge=$(printf '%s' "$resp" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
$psql -c "update intents set status = 'done', charge_id = '$charge' where key = '$key'"
