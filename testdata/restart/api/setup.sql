-- The Idempotency-Key middleware's table: one row per (client, key), with
-- the request's fingerprint and the stored response.
create table idempotency_keys (
  client_id       text not null,
  key             text not null,
  fingerprint     text not null,
  status          text not null check (status in ('processing', 'done')),
  locked_by       int,           -- backend pid of the request driving it
  locked_until    timestamptz,
  response_status int,
  response_body   text,
  created_at      timestamptz not null default now(),
  primary key (client_id, key)
);

-- The operation's own effect: one order per charge.
create table orders (
  id        bigserial primary key,
  client_id text not null,
  idem_key  text not null,
  charge_id text not null,
  amount    text not null
);
