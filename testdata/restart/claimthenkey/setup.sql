-- claimthenkey: a claim per message, then the key it charges with.
create table claims (message_id text primary key);
create table keys (message_id text primary key, key text not null);
