-- One more carrier failure in a row for a destination (the counter is_undeliverable reads;
-- apply_carrier_receipt clears it on a delivery). The callers decide when a failure counts
-- (services/messaging/handoff_decision and receipt_decision).
CREATE OR REPLACE FUNCTION count_carrier_failure(p_number text, p_code text, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
  INSERT INTO undeliverable_numbers AS u (phone_number, consecutive_failures, last_failure_at,
                                          last_failure_code)
  VALUES (p_number, 1, p_now, p_code)
  ON CONFLICT (phone_number) DO UPDATE SET consecutive_failures = u.consecutive_failures + 1,
    last_failure_at = p_now, last_failure_code = excluded.last_failure_code
$$;
