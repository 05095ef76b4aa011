#!/bin/sh
# A handler that runs its own migration into a schema of its choosing
# (app) instead of the one DATABASE_URL names: restart-test refuses the
# change and exits 2, naming it.
set -eu
cat >/dev/null
psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
create schema if not exists app;
create table if not exists app.payments (message_id text primary key);
SQL
