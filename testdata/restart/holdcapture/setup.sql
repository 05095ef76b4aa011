-- One row per message; the whole delivery runs in one transaction that
-- holds this row, so two deliveries never run at once and 'done' commits
-- together with the end of the work.
create table payments (
  message_id text primary key,
  status     text not null default 'started' check (status in ('started', 'done')),
  hold_id    text,
  capture_id text
);
