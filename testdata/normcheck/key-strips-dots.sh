#!/bin/sh
# A broken key function: it trims surrounding whitespace and strips the
# dots of chave_pix_destino but keeps the dashes, so "111.444.777-35" and
# "11144477735" give two keys — and the provider charges twice.
set -eu
payload=$(cat)
field() { printf '%s\n' "$payload" | sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p"; }
key=$(field chave_pix_destino | sed 's/^\(\\[tnr]\| \)*//; s/\(\\[tnr]\| \)*$//' | tr -d '.')
printf 'pix.cobranca|%s|%s|%s' "$(field cliente_id)" "$(field referencia_intencao)" "$key" | cksum | cut -d' ' -f1
