#!/bin/sh
# A correct handler in sh + psql + curl: write the intent, derive the key
# from the frozen payload, call the provider, record the result.
set -eu
msg=$(cat)
psql="psql -X -q -t -A -v ON_ERROR_STOP=1"

# The secret stays in the environment (\getenv, psql 15+): a -v argument
# would show it to everyone running ps. The key is taken over the payment
# normalized first (jsonb: member order and spacing; the Pix key's CPF or
# CNPJ punctuation; the amount in cents), so the same payment spelled
# another way (123.456.789-09 or 12345678909, 150 or "150.00") is the same
# key.
key=$($psql -v msg="$msg" <<'SQL'
\getenv secret IDEMPOTENCY_HMAC_KEY
insert into intents (message_id, payload, key)
select m->>'message_id', (m->'payment')::text,
       encode(sha256(convert_to(:'secret' || (
         m->'payment'
         || jsonb_build_object('valor', round((m->'payment'->>'valor')::numeric * 100)::bigint)
         || case when m->'payment'->>'chave_pix_destino' ~ '^[0-9./ -]+$'
                 then jsonb_build_object('chave_pix_destino', regexp_replace(m->'payment'->>'chave_pix_destino', '[^0-9]', '', 'g'))
                 else '{}'::jsonb end
       )::text, 'UTF8')), 'hex')
from (select :'msg'::jsonb as m) s
-- mutant:on-conflict
on conflict (message_id) do nothing
-- mutant:end
;
select key from intents where message_id = (:'msg'::jsonb)->>'message_id';
SQL
)
# The same payment re-sent under a new message id has its own row and the
# same key: any row of the key that is done means the payment is done.
status=$($psql -c "select status from intents where key = '$key' order by status = 'done' desc limit 1")
[ "$status" = done ] && exit 0
# mutant:frozen-row
payload=$($psql -c "select payload from intents where key = '$key' limit 1")
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
