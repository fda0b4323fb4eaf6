-- Everything an accepted send writes, in one round trip (the API checked and priced it before):
-- for LIVE, the charge (p_cost_cents, under p_charge_reference) and the pacing slot; the
-- message, new or (p_queue_again) a new attempt of one that failed before the carrier; the
-- hourly send counter; the message.queued event; the sms.outbound record. The message takes
-- p_status and raises p_event_type, handed over from the lifecycle's table (Accept, Requeue).
-- Returns a refusal instead when the balance is short (INSUFFICIENT_BALANCE), the account holds
-- no ACTIVE number p_from (PHONE_NUMBER_NOT_OWNED) or another request queued the message again
-- first (ALREADY_QUEUED): the caller then rolls the transaction back, rows written before the
-- refusal included.
-- Locks in the order every charging transaction takes them (rent, broadcasts): the sending
-- number, then the account's balance, then its hourly counter; and the account's rows at the
-- very end, so that one busy account's sends queue on them only for the commit
-- (docs/decisions.md, "One busy account"). Otherwise the slot (LIVE)
-- and, for a new message, the message as the API shows it. p_now is the API's clock.
-- p_request_id: the request the outbox rows name (by default the connection's setting).
CREATE OR REPLACE FUNCTION accept_outbound_message(
  p_id text, p_account text, p_mode text, p_from text, p_to text, p_body text, p_parts int,
  p_cost_cents bigint, p_part_price_cents int, p_body_sha256 text, p_consent_type text,
  p_queue_again boolean, p_attempt int, p_status text, p_event_type text,
  p_charge_reference text, p_charge_description text,
  p_toll_free_per_minute numeric, p_local_per_minute numeric,
  p_event_id uuid, p_event_record jsonb, p_events_topic text, p_outbound_topic text,
  p_outbound_record text, p_now timestamptz,
  p_request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), ''))
RETURNS TABLE (refusal text, send_at text, rendered text)
LANGUAGE plpgsql AS $$
DECLARE
  live boolean := p_mode = 'LIVE';
  slot timestamptz;
  message text;
BEGIN
  IF live THEN
    SELECT s.first_at INTO slot
    FROM reserve_send_slots(p_account, p_from, p_parts, 1, p_toll_free_per_minute,
                            p_local_per_minute, p_now) s;
    IF slot IS NULL THEN
      RETURN QUERY SELECT 'PHONE_NUMBER_NOT_OWNED', NULL::text, NULL::text;
      RETURN;
    END IF;
  END IF;
  IF NOT p_queue_again THEN
    SELECT api_message(m)::text INTO message
    FROM insert_outbound_messages(p_account, p_from, p_body, p_parts, p_mode, p_cost_cents,
                                  p_part_price_cents, p_body_sha256, p_status, slot, interval '0',
                                  jsonb_build_array(jsonb_build_object(
                                    'id', p_id, 'to', p_to, 'consent', p_consent_type))) m;
  ELSE
    UPDATE messages m SET status = p_status, error_code = NULL, error_message = NULL,
      handoff_started_at = NULL, carrier_message_id = NULL, send_attempt = p_attempt,
      segment_count = p_parts, cost_cents = p_cost_cents, part_price_cents = p_part_price_cents,
      send_at = slot, updated_at = p_now
    WHERE m.id = p_id AND failed_before_carrier(m.status, m.error_code);
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'ALREADY_QUEUED', NULL::text, NULL::text;
      RETURN;
    END IF;
  END IF;
  PERFORM raise_event(p_event_id, p_account, p_event_type, live, p_event_record,
                      p_events_topic, p_request_id);
  INSERT INTO outbox (topic, record_key, payload, request_id)
  VALUES (p_outbound_topic, p_from, p_outbound_record, p_request_id);
  -- The account's own rows last: every send of the account waits for these locks until the
  -- commit, so they are held for as little as possible. ALREADY_POSTED stands: a retry of the
  -- same attempt was charged once.
  IF live AND p_cost_cents > 0
     AND (SELECT l.outcome FROM post_ledger_entries(
            p_account, -p_cost_cents, 'sms_outbound',
            jsonb_build_array(jsonb_build_object('reference', p_charge_reference,
                                                 'description', p_charge_description))) l)
         = 'INSUFFICIENT_BALANCE' THEN
    RETURN QUERY SELECT 'INSUFFICIENT_BALANCE', NULL::text, NULL::text;
    RETURN;
  END IF;
  INSERT INTO account_send_hours AS h (account_id, mode, hour, sent)
  VALUES (p_account, p_mode, date_trunc('hour', p_now), 1)
  ON CONFLICT (account_id, mode, hour) DO UPDATE SET sent = h.sent + 1;
  RETURN QUERY SELECT NULL::text, iso_ts(slot), message;
END $$;
