CREATE OR REPLACE FUNCTION api_phone_number(p phone_numbers) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p.id, 'phone_number', p.phone_number, 'area_code', p.area_code, 'region', p.region,
    'capabilities', p.capabilities, 'status', p.status,
    'monthly_cost_cents', p.monthly_cost_cents, 'provisioned_at', iso_ts(p.provisioned_at),
    'released_at', iso_ts(p.released_at), 'number_type', p.number_type,
    'toll_free_verification',
      (SELECT jsonb_build_object('id', v.id, 'status', v.status)
         FROM toll_free_verifications v
        WHERE v.phone_number_id = p.id AND v.cancelled_at IS NULL
        ORDER BY v.created_at DESC, v.id DESC LIMIT 1))
$$;
