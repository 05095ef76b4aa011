-- The model is asked once; its extraction is frozen in the intent row and
-- every later attempt reads it back instead of asking again.
create table intents (
  tenant     text not null,
  message    text not null,          -- sha256 of sender and text: the business message
  message_id text not null,          -- the transport's id of the first delivery, for the record
  extraction text not null,
  idem_key   text not null unique,
  status     text not null default 'started' check (status in ('started', 'done')),
  charge_id  text,
  response   text,
  primary key (tenant, message)
);
