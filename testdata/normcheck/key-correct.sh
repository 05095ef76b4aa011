#!/bin/sh
# A correct key function for a CPF or CNPJ destination, as a team might
# write it in any language: read the intent (JSON on stdin), keep only the
# letters and digits of chave_pix_destino (uppercased), and hash that with
# the other key fields. Every spelling of one CPF/CNPJ gives one key.
#
#   idemcheck normcheck --type cpf --exec 'sh testdata/normcheck/key-correct.sh' \
#     --payload testdata/normcheck/payload.json --field chave_pix_destino 111.444.777-35
set -eu
payload=$(cat)
field() { printf '%s\n' "$payload" | sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p"; }
key=$(field chave_pix_destino)
if [ -z "$key" ]; then
	echo "key-correct.sh: no chave_pix_destino in the payload" >&2
	exit 1
fi
# Drop JSON escapes (\t, \r, \n) first, then every byte that is not a letter
# or a digit (dots, dashes, slashes, spaces, NBSP).
key=$(printf '%s' "$key" | sed 's/\\[tnrbf]//g' | LC_ALL=C tr -cd '0-9A-Za-z' | LC_ALL=C tr 'a-z' 'A-Z')
printf 'pix.cobranca|%s|%s|%s' "$(field cliente_id)" "$(field referencia_intencao)" "$key" | cksum | cut -d' ' -f1
