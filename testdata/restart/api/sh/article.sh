#!/bin/sh
# The Idempotency-Key middleware as the article writes it, as an HTTP API in
# sh: socat runs this script once per connection, request on stdin, answer
# on stdout. Keys are per client and fingerprinted, 409 while processing,
# 422 for another body, the stored response replayed; but
#  - a request without a key runs unprotected (`if (!key) return handler()`),
#  - the key row is marked processing before the work and done after it, so
#    a crash in between leaves it processing: every retry gets 409, forever.
#   idemcheck restart-test --handler 'sh testdata/restart/api/sh/article.sh 8089' \
#     --deliver http://127.0.0.1:8089/v1/orders --client-key ...
set -eu
if [ "${1:-}" != --request ]; then
  exec socat "TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr,fork" "EXEC:sh $0 --request"
fi
len=0 key='' client=''
IFS= read -r _request_line
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  [ -z "$line" ] && break
  value=$(printf '%s' "${line#*:}" | sed 's/^ *//')
  case $line in
    [Cc]ontent-[Ll]ength:*) len=$value ;;
    [Ii]dempotency-[Kk]ey:*) key=$value ;;
    [Aa]uthorization:*) client=$value ;;
  esac
done
body=$(head -c "$len")
# q SQL [-v name=value ...]: psql interpolates :'name' in SQL read from
# stdin, not in -c.
q() { sql=$1; shift; printf '%s\n' "$sql" | psql -X -q -t -A -v ON_ERROR_STOP=1 "$@"; }

reply() { # status body
  printf 'HTTP/1.1 %s X\r\nContent-Type: application/json\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
    "$1" "$(printf '%s' "$2" | wc -c)" "$2"
}

# handler charges at the provider and writes the order; prints the answer.
handler() {
  amount=$(q "select (:'body'::jsonb)->'payment'->>'valor'" -v body="$body")
  pkey=$(printf '%s\n%s\n%s' "$IDEMPOTENCY_HMAC_KEY" "$client" "${key:-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')}" | sha256sum | cut -c1-64)
  charge=$(curl -sS -f -X POST -H "Idempotency-Key: $pkey" -H 'Content-Type: application/json' \
    --data "{\"amount\":\"$amount\",\"currency\":\"BRL\"}" "$PROVIDER_URL/v1/charges" | sed 's/.*"id":"\([^"]*\)".*/\1/')
  order=$(q "insert into orders (client_id, idem_key, charge_id, amount) values (:'c', :'k', :'ch', :'a') returning id" \
    -v c="$client" -v k="$key" -v ch="$charge" -v a="$amount")
  printf '{"order_id":"ord_%s","charge_id":"%s","amount":"%s"}' "$order" "$charge" "$amount"
}

if [ -z "$key" ]; then
  reply 201 "$(handler)"
  exit 0
fi
fp=$(q "select md5((:'body'::jsonb)::text)" -v body="$body")
new=$(q "insert into idempotency_keys (client_id, key, fingerprint, status)
  values (:'c', :'k', :'fp', 'processing') on conflict do nothing returning 'new'" -v c="$client" -v k="$key" -v fp="$fp")
if [ "$new" = new ]; then
  out=$(handler)
  q "update idempotency_keys set status = 'done', response_status = 201, response_body = :'out'
    where client_id = :'c' and key = :'k'" -v c="$client" -v k="$key" -v out="$out"
  reply 201 "$out"
  exit 0
fi
row=$(q "select status, fingerprint from idempotency_keys where client_id = :'c' and key = :'k'" -F ' ' -v c="$client" -v k="$key")
status=${row%% *} stored_fp=${row#* }
if [ "$stored_fp" != "$fp" ]; then
  reply 422 '{"error":"Idempotency-Key reused with a different request"}'
elif [ "$status" = processing ]; then
  reply 409 '{"error":"a request with this Idempotency-Key is in progress"}'
else
  stored="select response_status, response_body from idempotency_keys where client_id = :'c' and key = :'k'"
  reply "$(q "$stored" -F ' ' -v c="$client" -v k="$key" | cut -d' ' -f1)" \
    "$(q "$stored" -F ' ' -v c="$client" -v k="$key" | cut -d' ' -f2-)"
fi
