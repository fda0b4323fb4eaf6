-- A new outbound message in p_status (QUEUED: the lifecycle's Accept), rendered as the API
-- shows it.
CREATE OR REPLACE FUNCTION insert_outbound_message(p_id text, p_account text, p_from text, p_to text,
                                        p_body text, p_parts int, p_mode text,
                                        p_cost_cents bigint, p_part_price_cents int,
                                        p_send_at timestamptz, p_body_sha256 text,
                                        p_consent_type text, p_status text)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  rendered text;
BEGIN
  INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                        segment_count, mode, cost_cents, part_price_cents, send_at,
                        body_sha256, casl_consent_type)
  VALUES (p_id, p_account, 'OUTBOUND', p_from, p_to, p_body, p_status, p_parts, p_mode,
          p_cost_cents, p_part_price_cents, p_send_at, p_body_sha256, p_consent_type)
  RETURNING api_message(messages)::text INTO rendered;
  RETURN rendered;
END $$;
