-- The middleware's table without the constraint that makes a claim atomic:
-- no primary key on (client_id, key), so two requests that both looked
-- first and found nothing both insert.
create table idempotency_keys (
  client_id       text not null,
  key             text not null,
  provider_key    text not null,
  status          text not null check (status in ('processing', 'done')),
  response_status int,
  response_body   text
);

create table orders (
  id        bigserial primary key,
  client_id text not null,
  idem_key  text not null,
  charge_id text not null,
  amount    text not null
);
