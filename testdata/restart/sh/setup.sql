-- The intent row is written before acting; its primary key makes the
-- database, not an `if`, enforce one intent per message.
create table intents (
  message_id text primary key,
  payload    text not null,
  key        text not null,
  status     text not null default 'started',
  charge_id  text,
  seq        bigint generated always as identity -- the order the rows were frozen in
);
