-- No unique constraint on message_id: the handler checks with a select
-- and then inserts, so two deliveries at once both find nothing.
create table payments (
  id         bigserial primary key,
  message_id text not null,
  status     text not null check (status in ('started', 'done')),
  charge_id  text
);
