-- The intent is written before acting. Its composite primary key lets the
-- database, not an `if`, decide that one message is one payment.
create table intents (
  tenant     text not null,
  message_id text not null,
  action     text not null,
  payload    text not null,          -- frozen: later attempts use this, not the message
  idem_key   text not null unique,   -- derived from the frozen payload
  created_at timestamptz not null default now()
  -- mutant:unique-constraint
  , primary key (tenant, message_id)
  -- mutant:end
);

-- One ledger row per key. A lease (an expiry and the holder's backend pid)
-- keeps two workers from driving the same payment at once; a dead holder
-- loses it at once.
create table ledger (
  idem_key    text primary key references intents (idem_key),
  status      text not null check (status in ('started', 'done')),
  lease_pid   int,
  lease_until timestamptz,
  drives      int not null default 1,
  charge_id   text,
  response    text,
  updated_at  timestamptz not null default now()
);
