CREATE OR REPLACE FUNCTION webhook_endpoints_owed(p_account text, p_types jsonb, p_event uuid,
                                       p_livemode boolean, p_at timestamptz)
RETURNS TABLE (id text, url text, signing_secret text, previous_secret text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT w.id, w.url, w.signing_secret, webhook_previous_secret(w, p_at)
  FROM webhooks w WHERE w.account_id = p_account AND w.active AND w.deleted_at IS NULL
  AND w.events @> p_types
  AND (w.mode = 'LIVE' OR NOT p_livemode)
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id
                  AND d.event_id = p_event AND d.success)
  AND NOT EXISTS (SELECT 1 FROM webhook_retries r WHERE r.webhook_id = w.id
                  AND r.event_id = p_event)
  AND NOT EXISTS (SELECT 1 FROM webhook_dead_letters l WHERE l.webhook_id = w.id
                  AND l.event_id = p_event);
END $$;
