-- Takes one request's slot for a key if its limit allows (GCRA, domain/request_rate.h, whose
-- nextArrivalAfter is the same rule for a limit one process keeps): the key's next arrival
-- moves on by p_interval_us unless that would put it more than a window ahead of p_now_us.
-- One statement, so two API instances deciding for one key at once are ordered by its row lock
-- and together allow no more than one instance would.
-- Answers whether the request is allowed and the key's next arrival after it (allowed) or as
-- it stands (refused), from which the caller computes the headers.
CREATE OR REPLACE FUNCTION take_request_slot(p_key text, p_interval_us bigint,
                                             p_window_us bigint, p_now_us bigint)
RETURNS TABLE(allowed boolean, next_arrival_us bigint)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_rate_cells AS c (key, next_arrival_us)
  VALUES (p_key, p_now_us + p_interval_us)
  ON CONFLICT (key) DO UPDATE
    SET next_arrival_us = greatest(c.next_arrival_us, p_now_us) + p_interval_us
    WHERE greatest(c.next_arrival_us, p_now_us) + p_interval_us - p_now_us <= p_window_us
  RETURNING c.next_arrival_us INTO next_arrival_us;
  allowed := FOUND;
  IF NOT allowed THEN
    SELECT c.next_arrival_us INTO next_arrival_us FROM request_rate_cells c WHERE c.key = p_key;
  END IF;
  RETURN NEXT;
END
$$;
