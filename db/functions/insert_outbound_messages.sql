-- New outbound messages of one body from one number, in p_status (QUEUED: the lifecycle's
-- Accept), one per entry of p_recipients ([{id, to, consent}], in that order): the n-th may go
-- at p_first_send_at + (n - 1) * p_step (null for TEST, which is not paced). Returns the rows.
CREATE OR REPLACE FUNCTION insert_outbound_messages(
  p_account text, p_from text, p_body text, p_parts int, p_mode text, p_cost_cents bigint,
  p_part_price_cents int, p_body_sha256 text, p_status text, p_first_send_at timestamptz,
  p_step interval, p_recipients jsonb)
RETURNS SETOF messages
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                        segment_count, mode, cost_cents, part_price_cents, send_at,
                        body_sha256, casl_consent_type)
  SELECT r.recipient ->> 'id', p_account, 'OUTBOUND', p_from, r.recipient ->> 'to', p_body,
         p_status, p_parts, p_mode, p_cost_cents, p_part_price_cents,
         p_first_send_at + p_step * (r.n - 1), p_body_sha256, r.recipient ->> 'consent'
  FROM jsonb_array_elements(p_recipients) WITH ORDINALITY AS r(recipient, n) ORDER BY r.n
  RETURNING *;
END $$;
