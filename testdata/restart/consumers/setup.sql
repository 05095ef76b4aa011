-- One row per payment, keyed by its idempotency key: the consumer's record
-- of what it asked the provider to do.
create table payments (
  idem_key   text primary key,
  message_id text not null,
  status     text not null check (status in ('started', 'done')),
  charge_id  text,
  updated_at timestamptz not null default now()
);
