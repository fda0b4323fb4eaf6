-- What a new verification's checks read, in one round trip: the codes sent to the number and by
-- the account in the hour before p_now (and when the oldest of each leaves the hour), the
-- number's code still in force (locked: the caller holds it to supersede it), an opt-out in force
-- (from p_from, or from any of the account's numbers when p_from is ''), where the key's lists
-- place the number (null lists: not read), and for LIVE the destination's cached line type and
-- failures, the account's verification and sending pause, and the verification price.
CREATE OR REPLACE FUNCTION verification_standing(
  p_account text, p_mode text, p_phone text, p_from text, p_allow_list text, p_deny_list text,
  p_cache_days int, p_failures int, p_failure_days int, p_now timestamptz)
RETURNS TABLE (to_number_last_hour int, number_frees_in int, by_account_last_hour int,
               account_frees_in int, previous_id text, previous_status text,
               previous_attempts int, previous_expires_in int, opted_out int, on_allow_list int,
               on_deny_list int, line_type text, undeliverable int, verified int,
               paused_until text, pause_reason text, price_cents int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  SELECT count(*) FILTER (WHERE v.phone_number = p_phone)::int,
         coalesce(ceil(extract(epoch FROM min(v.created_at) FILTER (WHERE v.phone_number =
           p_phone) + interval '1 hour' - p_now)), 0)::int,
         count(*)::int,
         coalesce(ceil(extract(epoch FROM min(v.created_at) + interval '1 hour' - p_now)), 0)::int
  INTO to_number_last_hour, number_frees_in, by_account_last_hour, account_frees_in
  FROM verifications v WHERE v.account_id = p_account AND v.mode = p_mode
  AND v.created_at > p_now - interval '1 hour';
  SELECT v.id, v.status, v.attempts, ceil(extract(epoch FROM v.expires_at - p_now))::int
  INTO previous_id, previous_status, previous_attempts, previous_expires_in
  FROM verifications v WHERE v.account_id = p_account AND v.mode = p_mode
  AND v.phone_number = p_phone AND v.status IN ('pending', 'max_attempts')
  AND v.expires_at > p_now ORDER BY v.created_at DESC LIMIT 1 FOR UPDATE;
  SELECT c.opted_out INTO opted_out FROM consent_standing(p_account, p_mode, p_phone, p_from, p_now) c;
  on_allow_list := (p_allow_list IS NOT NULL AND list_holds(p_allow_list, p_account, p_phone))::int;
  on_deny_list := (p_deny_list IS NOT NULL AND list_holds(p_deny_list, p_account, p_phone))::int;
  IF p_mode = 'LIVE' THEN
    SELECT d.line_type, d.undeliverable INTO line_type, undeliverable
    FROM known_destination(p_phone, p_cache_days, p_failures, p_failure_days, p_now) d;
    SELECT s.verified, s.paused_until, s.pause_reason INTO verified, paused_until, pause_reason
    FROM live_sender_standing(p_account, '', p_now) s;
  END IF;
  SELECT p.cents INTO price_cents FROM prices p WHERE p.code = 'verification';
  RETURN NEXT;
END $$;
