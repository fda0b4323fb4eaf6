CREATE OR REPLACE FUNCTION api_opt_in_confirmation(o opt_in_confirmations) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', o.id, 'status', o.status, 'from', o.from_number, 'to', o.to_number,
    'brand_name', o.brand_name, 'language', o.language, 'message_id', o.message_id,
    'expires_at', iso_ts(o.expires_at), 'confirmed_at', iso_ts(o.confirmed_at),
    'reply_message_id', o.reply_message_id, 'created_at', iso_ts(o.created_at))
$$;
