-- A destination the carrier failed for this many times in a row, the last within p_days.
CREATE OR REPLACE FUNCTION is_undeliverable(p_number text, p_failures int, p_days int) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM undeliverable_numbers WHERE phone_number = p_number
                 AND consecutive_failures >= p_failures
                 AND last_failure_at > now() - make_interval(days => p_days));
END $$;
