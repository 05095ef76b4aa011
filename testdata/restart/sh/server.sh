#!/bin/sh
# A --deliver handler in sh: socat accepts each connection and runs this
# script again with the request on stdin and the answer on stdout. It takes
# every connection for a request, as naive servers do.
#   idemcheck restart-test --handler 'sh testdata/restart/sh/server.sh 8089' \
#     --deliver http://127.0.0.1:8089/hook ...
set -eu
if [ "${1:-}" != --request ]; then
  exec socat "TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr,fork" "EXEC:sh $0 --request"
fi
len=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  [ -z "$line" ] && break
  case $line in [Cc]ontent-[Ll]ength:*) len=$(printf '%s' "${line#*:}" | tr -d ' ');; esac
done
msg=$(head -c "$len")
psql="psql -X -q -t -A -v ON_ERROR_STOP=1"
# The secret stays in the environment (\getenv, psql 15+): a -v argument
# would show it to everyone running ps. The key is taken over the payment
# normalized as intent.sh does.
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
on conflict (message_id) do nothing;
select key from intents where message_id = (:'msg'::jsonb)->>'message_id';
SQL
)
status=$($psql -c "select status from intents where key = '$key' order by status = 'done' desc limit 1")
if [ "$status" != done ]; then
  payload=$($psql -c "select payload from intents where key = '$key' order by seq limit 1")
  curl -sS -f -X POST -H "Idempotency-Key: $key" -H 'Content-Type: application/json' \
    --data "$payload" "$PROVIDER_URL/v1/charges" >/dev/null
  $psql -c "update intents set status = 'done' where key = '$key'"
fi
printf 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'
