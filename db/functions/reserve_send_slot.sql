-- Pacing: a number's parts go one after another at its rate. This message starts when the
-- parts already waiting are through and holds the number for its own parts. Returns when it
-- may go (ISO text, never before p_now), or null when the account holds no ACTIVE number
-- p_from.
CREATE OR REPLACE FUNCTION reserve_send_slot(p_account text, p_from text, p_parts int,
                                  p_toll_free_per_minute numeric, p_local_per_minute numeric,
                                  p_now timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  slot_at text;
BEGIN
  WITH slot AS (
    SELECT id, number_type, greatest(coalesce(next_send_at, p_now), p_now) AS at
    FROM phone_numbers WHERE account_id = p_account AND phone_number = p_from
    AND status = 'ACTIVE' FOR UPDATE)
  UPDATE phone_numbers p SET next_send_at = slot.at + make_interval(secs => p_parts * 60.0 /
    CASE WHEN slot.number_type = 'toll_free' THEN p_toll_free_per_minute
         ELSE p_local_per_minute END)
  FROM slot WHERE p.id = slot.id
  RETURNING iso_ts(slot.at) INTO slot_at;
  RETURN slot_at;
END $$;
