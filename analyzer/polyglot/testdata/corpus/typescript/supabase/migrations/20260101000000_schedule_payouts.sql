-- pg_cron calls the payout-cron edge function every 15 minutes.
select cron.schedule(
  'payout-cron',
  '*/15 * * * *',
  $$ select net.http_post(url := 'https://project.supabase.co/functions/v1/payout-cron') $$
);
