-- A message that failed before the carrier took it: a retry with its Idempotency-Key may queue
-- it again.
CREATE OR REPLACE FUNCTION failed_before_carrier(p_status text, p_error_code text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_status = 'FAILED' AND p_error_code IN ('CARRIER_UNAVAILABLE', 'CARRIER_THROTTLED')
$$;
