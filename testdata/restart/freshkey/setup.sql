-- A row per finished payment, written after the charge.
create table payments (
  message_id text primary key,
  status     text not null,
  charge_id  text
);
