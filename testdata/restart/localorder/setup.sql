-- The service's own effect is the order row; the key table remembers each
-- operation and the response it got.
create table idempotency_keys (
  -- mutant:unique-constraint
  key      text primary key,
  -- mutant> key      text,
  -- mutant:end
  status   text not null check (status in ('processing', 'completed')),
  response text
);
create table orders (
  id        bigserial primary key,
  op_key    text not null,
  amount    text not null
);
