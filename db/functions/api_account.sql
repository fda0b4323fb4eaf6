-- Resource shapes, rendered where the data is so that every route answers the same fields.
CREATE OR REPLACE FUNCTION api_account(a accounts) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', a.id, 'name', a.name, 'sender_name', a.sender_name, 'email', a.email,
    'payment_customer_id', a.payment_customer_id,
    'email_verified_at', iso_ts(a.email_verified_at),
    'status', a.status, 'balance_cents', a.balance_cents,
    'verified_phone', a.verified_phone, 'phone_verified_at', iso_ts(a.phone_verified_at),
    'email_undeliverable', a.email_undeliverable,
    'email_undeliverable_at', iso_ts(a.email_undeliverable_at),
    'email_undeliverable_reason', a.email_undeliverable_reason,
    'terms_accepted_at', iso_ts(a.terms_accepted_at), 'terms_version', a.terms_version,
    'created_at', iso_ts(a.created_at))
$$;
