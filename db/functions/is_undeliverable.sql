-- A destination the carrier failed for this many times in a row, the last within p_days of
-- p_now. The counter is kept by count_carrier_failure and apply_carrier_receipt.
CREATE OR REPLACE FUNCTION is_undeliverable(p_number text, p_failures int, p_days int,
                                            p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM undeliverable_numbers WHERE phone_number = p_number
                 AND consecutive_failures >= p_failures
                 AND last_failure_at > p_now - make_interval(days => p_days));
END $$;
