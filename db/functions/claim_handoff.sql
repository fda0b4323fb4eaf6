-- The sender's claim: records that the hand-off of a LIVE message starts at p_now, when it is
-- still queued, not yet started and due; returns what the carrier call needs (is_verification:
-- the text is made from its sealed code), or no row. The
-- guard is written `(status = 'QUEUED') IS TRUE` for the reason
-- services/messaging/still_queued.h gives.
CREATE OR REPLACE FUNCTION claim_handoff(p_id text, p_now timestamptz)
RETURNS TABLE (account_id text, from_number text, to_number text, body text,
               is_verification boolean, cost_cents bigint, send_attempt int, part_price_cents int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  UPDATE messages m SET handoff_started_at = p_now, updated_at = p_now
  WHERE m.id = p_id AND m.mode = 'LIVE' AND (m.status = 'QUEUED') IS TRUE
  AND m.handoff_started_at IS NULL AND (m.send_at IS NULL OR m.send_at <= p_now)
  RETURNING m.account_id, m.from_number, m.to_number, m.body, m.is_verification, m.cost_cents,
            m.send_attempt, m.part_price_cents;
END $$;
