-- Why a claim found nothing: whether the message is still queued for a hand-off, its hand-off
-- started, and that start more than p_stale_seconds before p_now. No row when there is no such
-- LIVE message. A send in doubt (carrier_outcome_unknown_since, migration 0027) is QUEUED but
-- no longer queued for a hand-off: its receipt or its deadline settles it, never a second send.
CREATE OR REPLACE FUNCTION handoff_state(p_id text, p_stale_seconds int, p_now timestamptz)
RETURNS TABLE (queued int, started int, stale int)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT (m.status = 'QUEUED' AND m.carrier_outcome_unknown_since IS NULL)::int,
         (m.handoff_started_at IS NOT NULL)::int,
         coalesce(m.handoff_started_at < p_now - make_interval(secs => p_stale_seconds),
                  false)::int
  FROM messages m WHERE m.id = p_id AND m.mode = 'LIVE';
END $$;
