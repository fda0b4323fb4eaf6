-- Verification as the API renders it at p_now: a pending code past its expiry shows expired.
CREATE OR REPLACE FUNCTION api_verification(v verifications, p_now timestamptz) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', v.id, 'phone_number', v.phone_number, 'from_number', v.from_number,
    'status', CASE WHEN v.status = 'pending' AND v.expires_at <= p_now THEN 'expired'
                   ELSE v.status END,
    'attempts', v.attempts, 'code_length', v.code_length, 'app_name', v.app_name,
    'mode', v.mode, 'cost_cents', v.cost_cents, 'message_id', v.message_id,
    'expires_at', iso_ts(v.expires_at), 'verified_at', iso_ts(v.verified_at),
    'created_at', iso_ts(v.created_at))
$$;
