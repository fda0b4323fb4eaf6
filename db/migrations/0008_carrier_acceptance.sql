-- The sender's record of the carrier's acceptance and the receipt worker's application of a
-- receipt, with the lock they share, as PL/pgSQL functions.
--
-- Why functions: the sender's record took five round trips inside its transaction (the lock,
-- the message, the event, the held receipt, and the charge when the carrier counted other
-- parts) and a receipt four (the lock, the message, the destination's failure run, the event).
-- On this deployment each round trip costs both sides a sleep and a wake-up (see
-- 0007_send_standing.sql). Now each takes one. The rare paths stay in C++
-- (services/messaging/receipts.cpp) and run in the same transaction: the held receipt the
-- sender applies, and a failed message's refund and delivery-health review.

-- Serializes, until the transaction ends, everything recorded under one carrier message id: the
-- sender recording the carrier's acceptance and the receipt worker applying a receipt. Each
-- takes it before its first statement on the id, so that statement's snapshot holds whatever
-- the other committed (services/messaging/receipts.h says what goes wrong without it). The
-- two-key form keeps these locks apart from one-key advisory locks such as the outbox relay's;
-- 727274003 is an arbitrary constant naming this use.
CREATE FUNCTION lock_carrier_message(p_carrier_message_id text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(727274003, hashtext(p_carrier_message_id));
$$;

-- The carrier took message p_id (claimed by the sender and still QUEUED): SENDING with the
-- carrier's id and part count; the charge moved by p_adjustment_cents (charged minus what the
-- carrier's parts cost: positive gives back, negative takes more) when the balance covers it,
-- otherwise the accepted charge stands; the message.sent event with the cost that stands. The
-- guard is written `(status = 'QUEUED') IS TRUE` for the reason
-- services/messaging/still_queued.h gives.
-- Returns the cost that stands and whether a receipt that came first is held, or no row when
-- the message was no longer QUEUED (a replay: nothing changes).
CREATE FUNCTION record_carrier_acceptance(
  p_id text, p_carrier_message_id text, p_parts int, p_adjustment_cents bigint,
  p_charge_reference text, p_adjustment_description text,
  p_event_id uuid, p_event_record jsonb, p_events_topic text)
RETURNS TABLE (cost_cents bigint, receipt_held boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  account text;
BEGIN
  PERFORM lock_carrier_message(p_carrier_message_id);
  UPDATE messages m SET status = 'SENDING', carrier_message_id = p_carrier_message_id,
    sent_at = now(), segment_count = p_parts, updated_at = now()
  WHERE m.id = p_id AND (m.status = 'QUEUED') IS TRUE
  RETURNING m.account_id, m.cost_cents INTO account, cost_cents;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_adjustment_cents <> 0
     AND post_ledger_entry(account, p_adjustment_cents, 'sms_adjustment', p_charge_reference,
                           p_adjustment_description) IS NOT NULL THEN
    cost_cents := cost_cents - p_adjustment_cents;
    UPDATE messages m SET cost_cents = record_carrier_acceptance.cost_cents WHERE m.id = p_id;
  END IF;
  PERFORM raise_event(p_event_id, account, 'message.sent', true,
                      jsonb_set(p_event_record, '{data,cost_cents}', to_jsonb(cost_cents)),
                      p_events_topic);
  receipt_held := EXISTS (SELECT 1 FROM early_receipts r
                          WHERE r.carrier_message_id = p_carrier_message_id);
  RETURN NEXT;
END $$;

-- The receipt worker's application of a final receipt, in one round trip under the same lock:
-- the message (SENDING or SENT) takes p_next_status with the carrier's error code; a delivered
-- LIVE message clears its destination's run of carrier failures; the event is raised with what
-- only the message row knows (account, mode, id, to, from) set into p_event_record. A receipt
-- for no message yet is held for the sender (HELD); one for a message already final changes
-- nothing (UNCHANGED). The caller does the rest for a failed LIVE message (refund, the failure
-- count, the account's delivery health) in the same transaction, from the columns returned.
CREATE FUNCTION apply_carrier_receipt(
  p_carrier_message_id text, p_next_status text, p_error_code text, p_receipt jsonb,
  p_event_id uuid, p_event_type text, p_event_record jsonb, p_events_topic text)
RETURNS TABLE (outcome text, message_id text, account_id text, to_number text, live boolean,
               send_attempt int, cost_cents bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  changed record;
  data jsonb;
BEGIN
  PERFORM lock_carrier_message(p_carrier_message_id);
  UPDATE messages m SET status = p_next_status, error_code = p_error_code, updated_at = now(),
    delivered_at = CASE WHEN p_next_status = 'DELIVERED' THEN now() ELSE m.delivered_at END
  WHERE m.carrier_message_id = p_carrier_message_id AND m.status IN ('SENDING', 'SENT')
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
                      p_events_topic);
  outcome := 'APPLIED';
  message_id := changed.id;
  account_id := changed.account_id;
  to_number := changed.to_number;
  send_attempt := changed.send_attempt;
  cost_cents := changed.cost_cents;
  RETURN NEXT;
END $$;
