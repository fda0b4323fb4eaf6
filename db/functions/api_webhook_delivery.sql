CREATE OR REPLACE FUNCTION api_webhook_delivery(d webhook_deliveries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', d.id, 'event_id', d.event_id, 'event_type', d.event_type, 'attempt', d.attempt,
    'success', d.success, 'http_status', d.http_status, 'error_reason', d.error_reason,
    'duration_ms', d.duration_ms, 'occurred_at', iso_ts(d.occurred_at))
$$;
