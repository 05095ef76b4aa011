-- One payment per transport message id.
create table payments (
  message_id text primary key,
  idem_key   text not null,
  status     text not null default 'started' check (status in ('started', 'done')),
  charge_id  text
);
