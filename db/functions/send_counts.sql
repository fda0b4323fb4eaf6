-- Every count the send limits need, and the outbound part price. The counts read indexes
-- bounded by the windows (the recipient's: recipient_window); the daily count reads at most 24
-- hourly counters. The *_frees_in figures are the seconds until the oldest counted send leaves
-- its window. The windows end at p_now. With p_to '', the fan-out counts every recipient.
-- Planned once per connection for any account (plan_cache_mode): planned for the account at
-- hand, an account the statistics barely know (one among many beside a very large one) looks
-- like one row, and the smaller index on (account_id, created_at) wins; it then reads every
-- message the account sent that day to count one recipient's (at 5,000,000 messages, 770 µs
-- against 180 µs; ops/bench/RESULTS.md).
CREATE OR REPLACE FUNCTION send_counts(p_account text, p_mode text, p_to text, p_body_sha256 text,
                                       p_now timestamptz)
RETURNS TABLE (recipient_last_hour int, recipient_last_day int, recipient_hour_frees_in int,
               recipient_day_frees_in int, own_daily_limit int, sent_last_day int,
               daily_frees_in int, fanout_recipients int, fanout_frees_in int,
               part_price_cents int)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH daily AS (
    SELECT coalesce(sum(h.sent), 0)::int AS sent,
           coalesce(ceil(extract(epoch FROM min(h.hour) + interval '25 hours' - p_now)),
             0)::int AS frees_in
    FROM account_send_hours h WHERE h.account_id = p_account AND h.mode = p_mode
    AND h.hour > date_trunc('hour', p_now) - interval '24 hours'),
  fanout AS (
    SELECT count(DISTINCT m.to_number)::int AS recipients,
           coalesce(ceil(extract(epoch FROM min(m.created_at) + interval '1 day' - p_now)),
             0)::int AS frees_in
    FROM messages m WHERE m.account_id = p_account AND m.mode = p_mode
    AND m.body_sha256 = p_body_sha256 AND m.created_at > p_now - interval '1 day'
    AND m.to_number <> p_to)
  SELECT recipient.last_hour, recipient.last_day, recipient.hour_frees_in,
         recipient.day_frees_in, (SELECT a.daily_send_limit FROM accounts a WHERE a.id = p_account),
         daily.sent, daily.frees_in, fanout.recipients, fanout.frees_in,
         (SELECT p.cents FROM prices p WHERE p.code = 'sms_outbound_part')
  FROM recipient_window(p_account, p_mode, p_to, p_now) recipient, daily, fanout;
END $$;
