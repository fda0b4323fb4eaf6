-- One batch of a group broadcast, in one round trip, under the broadcast's row lock (taken
-- here, so concurrent retries with one Idempotency-Key take turns): every member of p_members
-- ([{id, to, consent, charge_reference, charge_description, event_id, event, outbound}],
-- checked and priced by the API) that the broadcast has not messaged yet gets what
-- accept_outbound_message writes for one send, through the same functions (in their batched
-- forms, but raise_event's): for LIVE, its pacing slot (one after another on the sending number) and its charge
-- (one ledger row each, one balance update for the batch); the message in p_status; the
-- hourly counter; p_event_type; the sms.outbound record; and its broadcast_recipients row. The
-- status and the event are handed over from the lifecycle's table (Accept), as
-- accept_outbound_message's are.
-- Returns a refusal instead when the balance cannot cover the batch (INSUFFICIENT_BALANCE) or
-- the account holds no ACTIVE number p_from (PHONE_NUMBER_NOT_OWNED): the caller then rolls
-- the transaction back, the slot reserved before the refusal included.
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
  first_slot timestamptz;
  step interval;
  charged text;
  member jsonb;
BEGIN
  PERFORM 1 FROM broadcasts b WHERE b.id = p_broadcast FOR UPDATE;
  SELECT coalesce(jsonb_agg(x.m ORDER BY x.ord), '[]'::jsonb), count(*)
  INTO fresh, fresh_count
  FROM jsonb_array_elements(p_members) WITH ORDINALITY AS x(m, ord)
  WHERE NOT EXISTS (SELECT 1 FROM broadcast_recipients r WHERE r.broadcast_id = p_broadcast
                    AND r.to_number = x.m ->> 'to');

  -- The single send's functions, each in its batched form, in the single send's lock order:
  -- the sending number, then the balance.
  IF live AND fresh_count > 0 THEN
    SELECT s.first_at, s.step INTO first_slot, step
    FROM reserve_send_slots(p_account, p_from, p_parts, fresh_count, p_toll_free_per_minute,
                            p_local_per_minute, p_now) s;
    IF first_slot IS NULL THEN
      RETURN QUERY SELECT 'PHONE_NUMBER_NOT_OWNED', NULL::text, NULL::text, NULL::text,
                          NULL::text;
      RETURN;
    END IF;
    IF cost > 0 THEN
      SELECT l.outcome INTO charged
      FROM post_ledger_entries(p_account, -cost, 'sms_outbound',
        (SELECT jsonb_agg(jsonb_build_object('reference', b.m ->> 'charge_reference',
                                             'description', b.m ->> 'charge_description')
                          ORDER BY b.n)
         FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n))) l;
      IF charged = 'INSUFFICIENT_BALANCE' THEN
        RETURN QUERY SELECT 'INSUFFICIENT_BALANCE', NULL::text, NULL::text, NULL::text,
                            NULL::text;
        RETURN;
      END IF;
      -- A member not messaged yet whose charge exists would go uncharged with the others:
      -- it cannot happen (the charge and the member's row commit together), so it is an error.
      IF charged <> 'POSTED' THEN
        RAISE EXCEPTION 'broadcast %: a new member''s charge was already posted', p_broadcast;
      END IF;
    END IF;
  END IF;
  IF fresh_count > 0 THEN
    PERFORM count(*) FROM insert_outbound_messages(p_account, p_from, p_body, p_parts, p_mode,
                                                   cost, p_part_price_cents, p_body_sha256,
                                                   p_status, first_slot, step, fresh);
    INSERT INTO account_send_hours AS h (account_id, mode, hour, sent)
    VALUES (p_account, p_mode, date_trunc('hour', p_now), fresh_count)
    ON CONFLICT (account_id, mode, hour) DO UPDATE SET sent = h.sent + fresh_count;
    -- p_event_type for each member, then the sms.outbound records: each key's records stay in
    -- the members' order. One raise_event each: a set-based form of it cost the single send and
    -- every receipt more than it saved the batch (ops/bench/RESULTS.md).
    FOR member IN SELECT b.m FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n)
                  ORDER BY b.n LOOP
      PERFORM raise_event((member ->> 'event_id')::uuid, p_account, p_event_type, live,
                          member -> 'event', p_events_topic, p_request_id);
    END LOOP;
    INSERT INTO outbox (topic, record_key, payload, request_id)
    SELECT p_outbound_topic, p_from, b.m ->> 'outbound', p_request_id
    FROM jsonb_array_elements(fresh) WITH ORDINALITY AS b(m, n) ORDER BY b.n;
    INSERT INTO broadcast_recipients (broadcast_id, to_number, message_id)
    SELECT p_broadcast, b.m ->> 'to', b.m ->> 'id' FROM jsonb_array_elements(fresh) AS b(m);
  END IF;

  RETURN QUERY
  SELECT NULL::text, r.to_number, r.message_id, m.status, m.error_code
  FROM jsonb_array_elements(p_members) AS x(m)
  JOIN broadcast_recipients r ON r.broadcast_id = p_broadcast AND r.to_number = x.m ->> 'to'
  JOIN messages m ON m.id = r.message_id;
END $$;
