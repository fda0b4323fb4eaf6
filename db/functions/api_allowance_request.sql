CREATE OR REPLACE FUNCTION api_allowance_request(r allowance_requests) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', r.id, 'requested_limit', r.requested_limit, 'limit_at_request', r.limit_at_request,
    'held_at_request', r.held_at_request, 'reason', r.reason, 'status', r.status,
    'granted_limit', r.granted_limit, 'staff_note', r.staff_note,
    'decided_at', iso_ts(r.decided_at), 'created_at', iso_ts(r.created_at))
$$;
