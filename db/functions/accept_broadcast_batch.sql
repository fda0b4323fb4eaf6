-- One batch of a group broadcast, in one round trip, under the broadcast's row lock (taken
-- here, so concurrent retries with one Idempotency-Key take turns): every member of p_members
-- ([{id, to, consent, charge_reference, charge_description, event_id, event, outbound}],
-- checked and priced by the API) that the broadcast has not messaged yet gets what
-- accept_outbound_message writes for one send: for LIVE, its charge (one ledger row each, one
-- balance update for the batch) and its pacing slot (one after another on the sending number);
-- the message in p_status; the hourly counter; p_event_type; the sms.outbound record; and its
-- broadcast_recipients row. The status and the event are handed over from the lifecycle's
-- table (Accept), as accept_outbound_message's are.
-- Returns a refusal instead, writing nothing, when the balance cannot cover the batch
-- (INSUFFICIENT_BALANCE) or the account holds no ACTIVE number p_from (PHONE_NUMBER_NOT_OWNED).
-- Otherwise one row per member of the batch: the message the broadcast gave it (this batch's or
-- an earlier attempt's), with its status and error code.
CREATE OR REPLACE FUNCTION accept_broadcast_batch(
  p_broadcast text, p_account text, p_mode text, p_from text, p_body text, p_parts int,
  p_part_price_cents int, p_body_sha256 text, p_status text, p_event_type text,
  p_toll_free_per_minute numeric,
  p_local_per_minute numeric, p_events_topic text,
  p_outbound_topic text, p_members jsonb, p_now timestamptz,
  p_request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), ''))
RETURNS TABLE (refusal text, to_number text, message_id text, status text, error_code text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  live boolean := p_mode = 'LIVE';
  cost bigint := p_parts::bigint * p_part_price_cents;
  fresh jsonb;  -- the members not messaged yet, in order
  fresh_count int;
  balance_after bigint;
  number_id text;
  first_slot timestamptz;
  step interval;
BEGIN
  PERFORM 1 FROM broadcasts b WHERE b.id = p_broadcast FOR UPDATE;
  SELECT coalesce(jsonb_agg(x.m ORDER BY x.ord), '[]'::jsonb), count(*)
  INTO fresh, fresh_count
  FROM jsonb_array_elements(p_members) WITH ORDINALITY AS x(m, ord)
  WHERE NOT EXISTS (SELECT 1 FROM broadcast_recipients r WHERE r.broadcast_id = p_broadcast
                    AND r.to_number = x.m ->> 'to');

  IF live AND fresh_count > 0 THEN
    SELECT p.id, greatest(coalesce(p.next_send_at, p_now), p_now),
           make_interval(secs => p_parts * 60.0 / CASE WHEN p.number_type = 'toll_free'
                         THEN p_toll_free_per_minute ELSE p_local_per_minute END)
    INTO number_id, first_slot, step
    FROM phone_numbers p WHERE p.account_id = p_account AND p.phone_number = p_from
    AND p.status = 'ACTIVE' FOR UPDATE;
    IF number_id IS NULL THEN
      RETURN QUERY SELECT 'PHONE_NUMBER_NOT_OWNED', NULL::text, NULL::text, NULL::text,
                          NULL::text;
      RETURN;
    END IF;
    IF cost > 0 THEN
      UPDATE accounts a SET balance_cents = a.balance_cents - cost * fresh_count
      WHERE a.id = p_account AND a.balance_cents >= cost * fresh_count
      RETURNING a.balance_cents INTO balance_after;
      IF balance_after IS NULL THEN
        RETURN QUERY SELECT 'INSUFFICIENT_BALANCE', NULL::text, NULL::text, NULL::text,
                            NULL::text;
        RETURN;
      END IF;
      -- One ledger row per message, each with the balance after it, in the members' order.
      INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind,
                                  reference_id, description)
      SELECT p_account, -cost, balance_after + cost * (fresh_count - b.n), 'sms_outbound',
             b.m ->> 'charge_reference', b.m ->> 'charge_description'
      FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n) ORDER BY b.n;
    END IF;
    UPDATE phone_numbers SET next_send_at = first_slot + step * fresh_count
    WHERE id = number_id;
  END IF;

  INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                        segment_count, mode, cost_cents, part_price_cents, send_at,
                        body_sha256, casl_consent_type)
  SELECT b.m ->> 'id', p_account, 'OUTBOUND', p_from, b.m ->> 'to', p_body, p_status, p_parts,
         p_mode, cost, p_part_price_cents, first_slot + step * (b.n - 1), p_body_sha256,
         b.m ->> 'consent'
  FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n) ORDER BY b.n;
  IF fresh_count > 0 THEN
    INSERT INTO account_send_hours AS h (account_id, mode, hour, sent)
    VALUES (p_account, p_mode, date_trunc('hour', p_now), fresh_count)
    ON CONFLICT (account_id, mode, hour) DO UPDATE SET sent = h.sent + fresh_count;
  END IF;
  -- p_event_type (raise_event's two rows, for the batch), then the sms.outbound records:
  -- each key's records stay in the members' order.
  WITH raised AS (
    INSERT INTO events (id, account_id, type, livemode, data)
    SELECT (b.m ->> 'event_id')::uuid, p_account, p_event_type, live, b.m -> 'event' -> 'data'
    FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n) ORDER BY b.n
    RETURNING events.id, events.created_at)
  INSERT INTO outbox (topic, record_key, payload, request_id)
  SELECT p_events_topic, p_account,
         jsonb_set(b.m -> 'event', '{created}', to_jsonb(iso_ts(raised.created_at)))::text,
         p_request_id
  FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n)
  JOIN raised ON raised.id = (b.m ->> 'event_id')::uuid ORDER BY b.n;
  INSERT INTO outbox (topic, record_key, payload, request_id)
  SELECT p_outbound_topic, p_from, b.m ->> 'outbound', p_request_id
  FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n) ORDER BY b.n;
  INSERT INTO broadcast_recipients (broadcast_id, to_number, message_id)
  SELECT p_broadcast, b.m ->> 'to', b.m ->> 'id' FROM jsonb_array_elements(fresh) AS b(m);

  RETURN QUERY
  SELECT NULL::text, r.to_number, r.message_id, m.status, m.error_code
  FROM jsonb_array_elements(p_members) AS x(m)
  JOIN broadcast_recipients r ON r.broadcast_id = p_broadcast AND r.to_number = x.m ->> 'to'
  JOIN messages m ON m.id = r.message_id;
END $$;
