-- AccountDocument with the number fields: rent and the limit count ACTIVE and SUSPENDED; the
-- inbound count is the 24 hours before p_now. Also what the dashboard's overview shows: whether
-- LIVE sending is paused (until when, why), and this calendar month's spend (UTC): every
-- ledger entry but top-ups, refunds netted.
CREATE OR REPLACE FUNCTION api_account_document(a accounts, p_now timestamptz) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH held AS (
    SELECT count(*) AS used, COALESCE(sum(p.monthly_cost_cents), 0) AS rent
      FROM phone_numbers p
     WHERE p.account_id = a.id AND p.status IN ('ACTIVE', 'SUSPENDED'))
  SELECT jsonb_build_object(
    'account', api_account(a) || jsonb_build_object(
      'monthly_rent_cents', held.rent,
      'low_balance', a.balance_cents < held.rent,
      'phone_number_limit', a.phone_number_limit,
      'phone_numbers_used', held.used,
      'inbound_sms_daily_cap', a.inbound_sms_daily_cap,
      'inbound_sms_received_24h',
        (SELECT count(*) FROM messages m WHERE m.account_id = a.id AND m.direction = 'INBOUND'
           AND m.mode = 'LIVE' AND m.created_at > p_now - interval '24 hours'),
      'sending_paused_until',
        CASE WHEN a.sms_paused_until > p_now THEN iso_ts(a.sms_paused_until) END,
      'sending_pause_reason', CASE WHEN a.sms_paused_until > p_now THEN a.sms_pause_reason END,
      'spent_this_month_cents',
        (SELECT GREATEST(0, -COALESCE(sum(l.amount_cents), 0)) FROM ledger_entries l
          WHERE l.account_id = a.id AND l.kind <> 'top_up'
            AND l.created_at >= date_trunc('month', p_now AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')),
    'api_keys', COALESCE(
      (SELECT jsonb_agg(api_key_resource(k) ORDER BY k.created_at) FROM api_keys k
        WHERE k.account_id = a.id AND k.kind = 'USER' AND k.revoked_at IS NULL
          AND (k.expires_at IS NULL OR k.expires_at > p_now)), '[]'::jsonb),
    'features', jsonb_build_object('email', false))
  FROM held
$$;
