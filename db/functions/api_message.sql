CREATE OR REPLACE FUNCTION api_message(m messages) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', m.id, 'direction', m.direction, 'from', m.from_number, 'to', m.to_number,
    'body', m.body, 'body_purged', m.body_purged, 'status', m.status,
    'segment_count', m.segment_count, 'mode', m.mode, 'is_verification', m.is_verification,
    'auto_reply_keyword', m.auto_reply_keyword, 'cost_cents', m.cost_cents,
    'error_code', m.error_code, 'error_message', m.error_message,
    'sent_at', iso_ts(m.sent_at), 'created_at', iso_ts(m.created_at),
    'casl_consent_type', m.casl_consent_type, 'dncl_exemption', m.dncl_exemption,
    'delivered_at', iso_ts(m.delivered_at))
$$;
