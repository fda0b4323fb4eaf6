-- Everything POST /v1/messages reads before it charges, in one round trip. Why: on this
-- deployment each round trip to PostgreSQL costs the API a sleep and a wake-up (a poll and two
-- context switches) and PostgreSQL a statement of its own; a send read the destination, the
-- sender's standing, the consent and the limits in four. ops/bench/send-bench measured the
-- API's CPU per send falling when they became one (RESULTS.md, fifth run).
--
-- The API still decides, in its order of refusal, from the columns: this function only reads.
-- The LIVE-only columns (the destination's cached line type and failures, the account's
-- verification and pause, the `from` number's standing) are null in TEST mode, which touches
-- no live data. The fence columns say whether the key's allow and deny lists (null for a key
-- without them, which then costs nothing) hold the recipient.
CREATE OR REPLACE FUNCTION send_standing(p_account text, p_mode text, p_from text, p_to text,
                              p_now timestamptz, p_body_sha256 text, p_cache_days int,
                              p_failures int, p_failure_days int, p_allow_list text,
                              p_deny_list text)
RETURNS TABLE (on_allow_list int, on_deny_list int, line_type text, undeliverable int,
               verified int, paused_until text, pause_reason text, number_status text,
               number_type text, verification text,
               opted_out int, consent_type text, lapsed int,
               recipient_last_hour int, recipient_last_day int, recipient_hour_frees_in int,
               recipient_day_frees_in int, own_daily_limit int, sent_last_day int,
               daily_frees_in int, fanout_recipients int, fanout_frees_in int,
               part_price_cents int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  -- The result columns are this function's variables: each read fills its own.
  on_allow_list := (p_allow_list IS NOT NULL AND list_holds(p_allow_list, p_account, p_to))::int;
  on_deny_list := (p_deny_list IS NOT NULL AND list_holds(p_deny_list, p_account, p_to))::int;
  IF p_mode = 'LIVE' THEN
    SELECT d.line_type, d.undeliverable INTO line_type, undeliverable
    FROM known_destination(p_to, p_cache_days, p_failures, p_failure_days, p_now) d;
    SELECT s.verified, s.paused_until, s.pause_reason, s.number_status, s.number_type,
           s.verification
    INTO verified, paused_until, pause_reason, number_status, number_type, verification
    FROM live_sender_standing(p_account, p_from, p_now) s;
  END IF;
  SELECT c.opted_out, c.consent_type, c.lapsed INTO opted_out, consent_type, lapsed
  FROM consent_standing(p_account, p_mode, p_to, p_from, p_now) c;
  SELECT n.recipient_last_hour, n.recipient_last_day, n.recipient_hour_frees_in,
         n.recipient_day_frees_in, n.own_daily_limit, n.sent_last_day, n.daily_frees_in,
         n.fanout_recipients, n.fanout_frees_in, n.part_price_cents
  INTO recipient_last_hour, recipient_last_day, recipient_hour_frees_in, recipient_day_frees_in,
       own_daily_limit, sent_last_day, daily_frees_in, fanout_recipients, fanout_frees_in,
       part_price_cents
  FROM send_counts(p_account, p_mode, p_to, p_body_sha256, p_now) n;
  RETURN NEXT;
END $$;
