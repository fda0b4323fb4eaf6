-- The LIVE sender's side of a send: the account's verification, any sending pause in force
-- at p_now, and the `from` number's standing (nulls when the account does not hold it).
CREATE OR REPLACE FUNCTION live_sender_standing(p_account text, p_from text, p_now timestamptz)
RETURNS TABLE (verified int, paused_until text, pause_reason text, number_status text,
               number_type text, verification text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT (a.verified_phone IS NOT NULL)::int,
         CASE WHEN a.sms_paused_until > p_now THEN iso_ts(a.sms_paused_until) END,
         a.sms_pause_reason, n.status, n.number_type, n.verification
  FROM accounts a LEFT JOIN sending_number_standing(p_account, p_from) n ON true
  WHERE a.id = p_account;
END $$;
