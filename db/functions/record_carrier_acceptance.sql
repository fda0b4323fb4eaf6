-- The carrier took message p_id (claimed by the sender and still QUEUED): p_status (SENDING)
-- with the carrier's id and part count; the charge moved by p_adjustment_cents (charged minus
-- what the carrier's parts cost: positive gives back, negative takes more) when the balance
-- covers it, otherwise the accepted charge stands; p_event_type (message.sent) with the cost
-- that stands. The status and the event are handed over from the lifecycle's table. The guard is written `(status = 'QUEUED') IS TRUE` for the reason
-- services/messaging/still_queued.h gives.
-- Returns the cost that stands and whether a receipt that came first is held, or no row when
-- the message was no longer QUEUED (a replay: nothing changes).
CREATE OR REPLACE FUNCTION record_carrier_acceptance(
  p_id text, p_status text, p_event_type text, p_carrier_message_id text, p_parts int,
  p_adjustment_cents bigint, p_charge_reference text, p_adjustment_description text,
  p_event_id uuid, p_event_record jsonb, p_events_topic text, p_now timestamptz,
  p_request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), ''))
RETURNS TABLE (cost_cents bigint, receipt_held boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  account text;
BEGIN
  PERFORM lock_carrier_message(p_carrier_message_id);
  UPDATE messages m SET status = p_status, carrier_message_id = p_carrier_message_id,
    sent_at = p_now, segment_count = p_parts, updated_at = p_now
  WHERE m.id = p_id AND (m.status = 'QUEUED') IS TRUE
  RETURNING m.account_id, m.cost_cents INTO account, cost_cents;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_adjustment_cents <> 0
     AND (SELECT l.outcome FROM post_ledger_entries(
            account, p_adjustment_cents, 'sms_adjustment',
            jsonb_build_array(jsonb_build_object('reference', p_charge_reference,
                                                 'description', p_adjustment_description))) l)
         = 'POSTED' THEN
    cost_cents := cost_cents - p_adjustment_cents;
    UPDATE messages m SET cost_cents = record_carrier_acceptance.cost_cents WHERE m.id = p_id;
  END IF;
  PERFORM raise_event(p_event_id, account, p_event_type, true,
                      jsonb_set(p_event_record, '{data,cost_cents}', to_jsonb(cost_cents)),
                      p_events_topic, p_request_id);
  receipt_held := EXISTS (SELECT 1 FROM early_receipts r
                          WHERE r.carrier_message_id = p_carrier_message_id);
  RETURN NEXT;
END $$;
