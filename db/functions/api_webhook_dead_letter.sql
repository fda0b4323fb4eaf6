CREATE OR REPLACE FUNCTION api_webhook_dead_letter(l webhook_dead_letters) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', l.id, 'event_id', l.event_id, 'event_type', l.event_type,
    'failed_reason', l.failed_reason, 'created_at', iso_ts(l.created_at),
    'replayed_at', iso_ts(l.replayed_at), 'payload', l.payload)
$$;
