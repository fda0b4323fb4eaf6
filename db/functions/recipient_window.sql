-- The messages an account sent one recipient in the last hour and day (automatic STOP/START/HELP
-- confirmations aside), and the seconds until the oldest of each leaves its window: what the
-- per-recipient limit is decided from. A SQL function in FROM is inlined into its caller's
-- query, so send_counts and broadcast_member_standing share it at no cost.
CREATE OR REPLACE FUNCTION recipient_window(p_account text, p_mode text, p_to text,
                                            p_now timestamptz)
RETURNS TABLE (last_hour int, last_day int, hour_frees_in int, day_frees_in int)
LANGUAGE sql STABLE AS $$
  SELECT count(*) FILTER (WHERE m.created_at > p_now - interval '1 hour')::int,
         count(*)::int,
         coalesce(ceil(extract(epoch FROM min(m.created_at) FILTER (WHERE m.created_at >
           p_now - interval '1 hour') + interval '1 hour' - p_now)), 0)::int,
         coalesce(ceil(extract(epoch FROM min(m.created_at) + interval '1 day' - p_now)), 0)::int
  FROM messages m WHERE m.account_id = p_account AND m.mode = p_mode
  AND m.direction = 'OUTBOUND' AND m.to_number = p_to
  AND m.created_at > p_now - interval '1 day' AND m.auto_reply_keyword IS NULL
$$;
