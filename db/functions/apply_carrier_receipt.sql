-- The receipt worker's application of a final receipt, in one round trip under the same lock:
-- the message (SENDING or SENT, and not already at p_next_status, so that a repeated
-- unconfirmed receipt raises nothing twice) takes p_next_status with the carrier's error code; a delivered
-- LIVE message clears its destination's run of carrier failures; the event is raised with what
-- only the message row knows (account, mode, id, to, from) set into p_event_record. A receipt
-- for no message yet is held for the sender (HELD); one for a message already final changes
-- nothing (UNCHANGED). The caller does the rest for a failed LIVE message (refund, the failure
-- count, the account's delivery health) in the same transaction, from the columns returned.
CREATE OR REPLACE FUNCTION apply_carrier_receipt(
  p_carrier_message_id text, p_next_status text, p_error_code text, p_receipt jsonb,
  p_event_id uuid, p_event_type text, p_event_record jsonb, p_events_topic text,
  p_now timestamptz,
  p_request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), ''))
RETURNS TABLE (outcome text, message_id text, account_id text, to_number text, live boolean,
               send_attempt int, cost_cents bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  changed record;
  data jsonb;
BEGIN
  PERFORM lock_carrier_message(p_carrier_message_id);
  UPDATE messages m SET status = p_next_status, error_code = p_error_code, updated_at = p_now,
    delivered_at = CASE WHEN p_next_status = 'DELIVERED' THEN p_now ELSE m.delivered_at END
  WHERE m.carrier_message_id = p_carrier_message_id AND m.status IN ('SENDING', 'SENT')
    AND m.status <> p_next_status
  RETURNING m.id, m.account_id, m.from_number, m.to_number, m.mode, m.send_attempt,
            m.cost_cents INTO changed;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM messages k WHERE k.carrier_message_id = p_carrier_message_id) THEN
      outcome := 'UNCHANGED';  -- late or repeated: already final
    ELSE
      INSERT INTO early_receipts (carrier_message_id, payload)
      VALUES (p_carrier_message_id, p_receipt) ON CONFLICT DO NOTHING;
      outcome := 'HELD';
    END IF;
    RETURN NEXT;
    RETURN;
  END IF;
  live := changed.mode = 'LIVE';
  IF live AND p_next_status = 'DELIVERED' THEN
    UPDATE undeliverable_numbers u SET consecutive_failures = 0
    WHERE u.phone_number = changed.to_number AND u.consecutive_failures > 0;
  END IF;
  data := (p_event_record -> 'data') || jsonb_build_object(
    'message_id', changed.id, 'to', changed.to_number, 'from', changed.from_number);
  PERFORM raise_event(p_event_id, changed.account_id, p_event_type, live,
                      p_event_record || jsonb_build_object(
                        'account_id', changed.account_id, 'livemode', live, 'data', data),
                      p_events_topic, p_request_id);
  outcome := 'APPLIED';
  message_id := changed.id;
  account_id := changed.account_id;
  to_number := changed.to_number;
  send_attempt := changed.send_attempt;
  cost_cents := changed.cost_cents;
  RETURN NEXT;
END $$;
