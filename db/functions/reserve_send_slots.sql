-- Pacing: a number's parts go one after another at its rate. p_count messages of p_parts parts
-- each start when the parts already waiting are through and hold the number for their own
-- parts: the first may go at first_at (never before p_now), each next one step after the one
-- before. No row when the account holds no ACTIVE number p_from. A single send reserves one.
CREATE OR REPLACE FUNCTION reserve_send_slots(p_account text, p_from text, p_parts int,
                                              p_count int, p_toll_free_per_minute numeric,
                                              p_local_per_minute numeric, p_now timestamptz)
RETURNS TABLE (first_at timestamptz, step interval)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH slot AS (
    SELECT p.id, greatest(coalesce(p.next_send_at, p_now), p_now) AS at,
           make_interval(secs => p_parts * 60.0 / CASE WHEN p.number_type = 'toll_free'
                         THEN p_toll_free_per_minute ELSE p_local_per_minute END) AS step
    FROM phone_numbers p WHERE p.account_id = p_account AND p.phone_number = p_from
    AND p.status = 'ACTIVE' FOR UPDATE)
  UPDATE phone_numbers p SET next_send_at = slot.at + slot.step * p_count
  FROM slot WHERE p.id = slot.id
  RETURNING slot.at, slot.step;
END $$;
