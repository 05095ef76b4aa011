create table payments (
  message_id text primary key,
  idem_key   text not null,
  extraction text not null,
  charge_id  text not null
);
