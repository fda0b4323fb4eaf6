-- The Webhook resource shows the mode it was registered in.
CREATE OR REPLACE FUNCTION api_webhook(w webhooks) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', w.id, 'url', w.url, 'events', w.events, 'active', w.active, 'mode', w.mode,
    'deactivated_reason', w.deactivated_reason, 'deactivated_at', iso_ts(w.deactivated_at),
    'failing_since', iso_ts(w.failing_since), 'failed_events', w.failed_events,
    'last_success_at', iso_ts(w.last_success_at), 'last_failure_at', iso_ts(w.last_failure_at),
    'last_failure_reason', w.last_failure_reason, 'secret_rotated_at', iso_ts(w.secret_rotated_at),
    'created_at', iso_ts(w.created_at))
$$;
