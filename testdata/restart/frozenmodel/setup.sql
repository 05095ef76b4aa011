-- The model is asked once; its extraction is frozen in the intent row and
-- every later attempt reads it back instead of asking again.
create table intents (
  tenant     text not null,
  message_id text not null,
  extraction text not null,
  idem_key   text not null unique,
  status     text not null default 'started' check (status in ('started', 'done')),
  charge_id  text,
  response   text,
  primary key (tenant, message_id)
);
