-- The statements every send (and every event the dispatcher reads) runs, as PL/pgSQL
-- functions. Why: each statement sent by SOCI is planned afresh on every call, and under load
-- planning cost PostgreSQL more than executing (pg_stat_statements with track_planning,
-- ops/bench/send-bench: 7.5 of 17.6 CPU-seconds). A PL/pgSQL function keeps its statements'
-- plans for the life of the connection, and the pooled connections live as long as the process.
--
-- The callers read each function's result exactly as they read the statement it replaces.
-- Parameters are named p_* so that they never shadow a column.

-- The caller behind an API key's hash, with what authentication decides on.
CREATE FUNCTION api_key_caller(p_key_hash text)
RETURNS TABLE (key_id text, account_id text, mode text, permissions text, revoked int,
               account_status text, fenced int, allow_list_required int, stale int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT k.id, k.account_id, k.mode, k.permissions::text, (k.revoked_at IS NOT NULL)::int,
         a.status,
         (k.default_deny OR k.allow_list_id IS NOT NULL OR k.deny_list_id IS NOT NULL)::int,
         (k.default_deny OR k.allow_list_id IS NOT NULL)::int,
         -- last_used_at is written at most once a minute per key
         (k.last_used_at IS NULL OR k.last_used_at < now() - interval '60 seconds')::int
  FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = p_key_hash;
END $$;

-- A destination the carrier failed for this many times in a row, the last within p_days.
CREATE FUNCTION is_undeliverable(p_number text, p_failures int, p_days int) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM undeliverable_numbers WHERE phone_number = p_number
                 AND consecutive_failures >= p_failures
                 AND last_failure_at > now() - make_interval(days => p_days));
END $$;

-- What the database knows of a destination: its cached line type (null when not cached or
-- older than p_cache_days) and whether it is undeliverable.
CREATE FUNCTION known_destination(p_number text, p_cache_days int, p_failures int, p_days int)
RETURNS TABLE (line_type text, undeliverable int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT (SELECT l.line_type FROM number_lookups l WHERE l.phone_number = p_number
          AND l.looked_up_at > now() - make_interval(days => p_cache_days)),
         is_undeliverable(p_number, p_failures, p_days)::int;
END $$;

-- A sending number's standing: null status when the account does not hold it; the latest
-- toll-free verification's status, looked for on toll-free numbers only.
CREATE FUNCTION sending_number_standing(p_account text, p_number text)
RETURNS TABLE (status text, number_type text, verification text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT p.status, p.number_type,
         CASE WHEN p.number_type = 'toll_free' THEN
           (SELECT v.status FROM toll_free_verifications v WHERE v.phone_number_id = p.id
            AND v.cancelled_at IS NULL ORDER BY v.created_at DESC, v.id DESC LIMIT 1) END
  FROM phone_numbers p WHERE p.account_id = p_account AND p.phone_number = p_number
  AND p.status IN ('ACTIVE', 'SUSPENDED');
END $$;

-- The LIVE sender's side of a send: the account's verification, any sending pause in force,
-- and the `from` number's standing (nulls when the account does not hold it).
CREATE FUNCTION live_sender_standing(p_account text, p_from text)
RETURNS TABLE (verified int, paused_until text, pause_reason text, number_status text,
               number_type text, verification text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT (a.verified_phone IS NOT NULL)::int,
         CASE WHEN a.sms_paused_until > now() THEN iso_ts(a.sms_paused_until) END,
         a.sms_pause_reason, n.status, n.number_type, n.verification
  FROM accounts a LEFT JOIN sending_number_standing(p_account, p_from) n ON true
  WHERE a.id = p_account;
END $$;

-- The consent check's one read: an opt-out in force (from this sending number, or any when
-- p_from is ''), the best consent in force (EXPRESS first, then the latest), and whether an
-- implied consent has lapsed without being marked so yet.
CREATE FUNCTION consent_standing(p_account text, p_mode text, p_phone text, p_from text,
                                 p_now timestamptz)
RETURNS TABLE (opted_out int, consent_type text, lapsed int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = p_account AND o.mode = p_mode
                 AND o.phone_number = p_phone AND o.reinstated_at IS NULL
                 AND (p_from = '' OR o.from_number = p_from))::int,
         (SELECT c.consent_type FROM consents c WHERE c.account_id = p_account
          AND c.mode = p_mode AND c.phone_number = p_phone AND c.status = 'ACTIVE'
          AND NOT (c.consent_type = 'IMPLIED' AND c.expires_at <= p_now)
          ORDER BY c.consent_type = 'EXPRESS' DESC, c.granted_at DESC LIMIT 1),
         EXISTS (SELECT 1 FROM consents c WHERE c.account_id = p_account AND c.mode = p_mode
                 AND c.phone_number = p_phone AND c.status = 'ACTIVE'
                 AND c.consent_type = 'IMPLIED' AND c.expires_at <= p_now)::int;
END $$;

-- Every count the send limits need, and the outbound part price. The counts read partial
-- indexes bounded by the windows; the daily count reads at most 24 hourly counters. The
-- *_frees_in figures are the seconds until the oldest counted send leaves its window.
CREATE FUNCTION send_counts(p_account text, p_mode text, p_to text, p_body_sha256 text)
RETURNS TABLE (recipient_last_hour int, recipient_last_day int, recipient_hour_frees_in int,
               recipient_day_frees_in int, own_daily_limit int, sent_last_day int,
               daily_frees_in int, fanout_recipients int, fanout_frees_in int,
               part_price_cents int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH recipient AS (
    SELECT count(*) FILTER (WHERE m.created_at > now() - interval '1 hour')::int AS last_hour,
           count(*)::int AS last_day,
           coalesce(ceil(extract(epoch FROM min(m.created_at) FILTER (WHERE m.created_at >
             now() - interval '1 hour') + interval '1 hour' - now())), 0)::int AS hour_frees_in,
           coalesce(ceil(extract(epoch FROM min(m.created_at) + interval '1 day' - now())),
             0)::int AS day_frees_in
    FROM messages m WHERE m.account_id = p_account AND m.mode = p_mode
    AND m.direction = 'OUTBOUND' AND m.to_number = p_to
    AND m.created_at > now() - interval '1 day' AND m.auto_reply_keyword IS NULL),
  daily AS (
    SELECT coalesce(sum(h.sent), 0)::int AS sent,
           coalesce(ceil(extract(epoch FROM min(h.hour) + interval '25 hours' - now())),
             0)::int AS frees_in
    FROM account_send_hours h WHERE h.account_id = p_account AND h.mode = p_mode
    AND h.hour > date_trunc('hour', now()) - interval '24 hours'),
  fanout AS (
    SELECT count(DISTINCT m.to_number)::int AS recipients,
           coalesce(ceil(extract(epoch FROM min(m.created_at) + interval '1 day' - now())),
             0)::int AS frees_in
    FROM messages m WHERE m.account_id = p_account AND m.mode = p_mode
    AND m.body_sha256 = p_body_sha256 AND m.created_at > now() - interval '1 day'
    AND m.to_number <> p_to)
  SELECT recipient.last_hour, recipient.last_day, recipient.hour_frees_in,
         recipient.day_frees_in, (SELECT a.daily_send_limit FROM accounts a WHERE a.id = p_account),
         daily.sent, daily.frees_in, fanout.recipients, fanout.frees_in,
         (SELECT p.cents FROM prices p WHERE p.code = 'sms_outbound_part')
  FROM recipient, daily, fanout;
END $$;

-- A balance change and its ledger row in one statement; the balance after, or null when
-- nothing moved (the same kind and reference was posted before, or the balance is short).
-- Concurrent debits serialize on the account row and none can take the balance below zero.
CREATE FUNCTION post_ledger_entry(p_account text, p_amount bigint, p_kind text,
                                  p_reference text, p_description text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  balance_after bigint;
BEGIN
  WITH moved AS (
    UPDATE accounts SET balance_cents = balance_cents + p_amount
    WHERE id = p_account AND balance_cents + p_amount >= 0
    AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE kind = p_kind
                    AND reference_id = p_reference)
    RETURNING balance_cents)
  INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                              description)
  SELECT p_account, p_amount, balance_cents, p_kind, p_reference, p_description FROM moved
  RETURNING balance_after_cents INTO balance_after;
  RETURN balance_after;
END $$;

-- Pacing: a number's parts go one after another at its rate. This message starts when the
-- parts already waiting are through and holds the number for its own parts. Returns when it
-- may go (ISO text), or null when the account holds no ACTIVE number p_from.
CREATE FUNCTION reserve_send_slot(p_account text, p_from text, p_parts int,
                                  p_toll_free_per_minute numeric, p_local_per_minute numeric)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  slot_at text;
BEGIN
  WITH slot AS (
    SELECT id, number_type, greatest(coalesce(next_send_at, now()), now()) AS at
    FROM phone_numbers WHERE account_id = p_account AND phone_number = p_from
    AND status = 'ACTIVE' FOR UPDATE)
  UPDATE phone_numbers p SET next_send_at = slot.at + make_interval(secs => p_parts * 60.0 /
    CASE WHEN slot.number_type = 'toll_free' THEN p_toll_free_per_minute
         ELSE p_local_per_minute END)
  FROM slot WHERE p.id = slot.id
  RETURNING iso_ts(slot.at) INTO slot_at;
  RETURN slot_at;
END $$;

-- A new outbound message, QUEUED, rendered as the API shows it.
CREATE FUNCTION insert_outbound_message(p_id text, p_account text, p_from text, p_to text,
                                        p_body text, p_parts int, p_mode text,
                                        p_cost_cents bigint, p_part_price_cents int,
                                        p_send_at timestamptz, p_body_sha256 text,
                                        p_consent_type text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  rendered text;
BEGIN
  INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                        segment_count, mode, cost_cents, part_price_cents, send_at,
                        body_sha256, casl_consent_type)
  VALUES (p_id, p_account, 'OUTBOUND', p_from, p_to, p_body, 'QUEUED', p_parts, p_mode,
          p_cost_cents, p_part_price_cents, p_send_at, p_body_sha256, p_consent_type)
  RETURNING api_message(messages)::text INTO rendered;
  RETURN rendered;
END $$;

-- An event row and its outbox record (the record carries the event's `created`).
CREATE FUNCTION raise_event(p_id uuid, p_account text, p_type text, p_livemode boolean,
                            p_record jsonb, p_topic text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  created text;
BEGIN
  INSERT INTO events (id, account_id, type, livemode, data)
  VALUES (p_id, p_account, p_type, p_livemode, p_record -> 'data')
  RETURNING iso_ts(events.created_at) INTO created;
  INSERT INTO outbox (topic, record_key, payload)
  VALUES (p_topic, p_account, jsonb_set(p_record, '{created}', to_jsonb(created))::text);
END $$;

-- The previous signing secret while it still signs (for a day after a rotation).
CREATE FUNCTION webhook_previous_secret(w webhooks, p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN w.previous_secret_expires_at > p_at THEN w.previous_secret END
$$;

-- The endpoints an event is owed to: active, subscribed to its type, and not yet delivered,
-- retrying or dead-lettered for it.
CREATE FUNCTION webhook_endpoints_owed(p_account text, p_types jsonb, p_event uuid,
                                       p_at timestamptz)
RETURNS TABLE (id text, url text, signing_secret text, previous_secret text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT w.id, w.url, w.signing_secret, webhook_previous_secret(w, p_at)
  FROM webhooks w WHERE w.account_id = p_account AND w.active AND w.deleted_at IS NULL
  AND w.events @> p_types
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id
                  AND d.event_id = p_event AND d.success)
  AND NOT EXISTS (SELECT 1 FROM webhook_retries r WHERE r.webhook_id = w.id
                  AND r.event_id = p_event)
  AND NOT EXISTS (SELECT 1 FROM webhook_dead_letters l WHERE l.webhook_id = w.id
                  AND l.event_id = p_event);
END $$;

-- The sender's claim: records that the hand-off of a LIVE message starts now, when it is still
-- queued, not yet started and due; returns what the carrier call needs, or no row. The guard
-- is written `(status = 'QUEUED') IS TRUE` for the reason services/messaging/still_queued.h gives.
CREATE FUNCTION claim_handoff(p_id text)
RETURNS TABLE (account_id text, from_number text, to_number text, body text, cost_cents bigint,
               send_attempt int, part_price_cents int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  UPDATE messages m SET handoff_started_at = now(), updated_at = now()
  WHERE m.id = p_id AND m.mode = 'LIVE' AND (m.status = 'QUEUED') IS TRUE
  AND m.handoff_started_at IS NULL AND (m.send_at IS NULL OR m.send_at <= now())
  RETURNING m.account_id, m.from_number, m.to_number, m.body, m.cost_cents,
            m.send_attempt, m.part_price_cents;
END $$;

-- Why a claim found nothing: whether the message is still queued, its hand-off started, and
-- that start older than p_stale_seconds. No row when there is no such LIVE message.
CREATE FUNCTION handoff_state(p_id text, p_stale_seconds int)
RETURNS TABLE (queued int, started int, stale int)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT (m.status = 'QUEUED')::int, (m.handoff_started_at IS NOT NULL)::int,
         coalesce(m.handoff_started_at < now() - make_interval(secs => p_stale_seconds),
                  false)::int
  FROM messages m WHERE m.id = p_id AND m.mode = 'LIVE';
END $$;

-- A message that failed before the carrier took it: a retry with its Idempotency-Key may queue
-- it again.
CREATE FUNCTION failed_before_carrier(p_status text, p_error_code text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_status = 'FAILED' AND p_error_code IN ('CARRIER_UNAVAILABLE', 'CARRIER_THROTTLED')
$$;

-- Everything an accepted send writes, in one round trip (the API checked and priced it before):
-- for LIVE, the charge (p_cost_cents, under p_charge_reference) and the pacing slot; the
-- message, new or (p_queue_again) a new attempt of one that failed before the carrier; the
-- hourly send counter; the message.queued event; the sms.outbound record.
-- Returns a refusal instead when the balance is short (INSUFFICIENT_BALANCE), the account holds
-- no ACTIVE number p_from (PHONE_NUMBER_NOT_OWNED) or another request queued the message again
-- first (ALREADY_QUEUED): the caller then rolls the transaction back. Otherwise the slot (LIVE)
-- and, for a new message, the message as the API shows it.
CREATE FUNCTION accept_outbound_message(
  p_id text, p_account text, p_mode text, p_from text, p_to text, p_body text, p_parts int,
  p_cost_cents bigint, p_part_price_cents int, p_body_sha256 text, p_consent_type text,
  p_queue_again boolean, p_attempt int, p_charge_reference text, p_charge_description text,
  p_toll_free_per_minute numeric, p_local_per_minute numeric,
  p_event_id uuid, p_event_record jsonb, p_events_topic text, p_outbound_topic text,
  p_outbound_record text)
RETURNS TABLE (refusal text, send_at text, rendered text)
LANGUAGE plpgsql AS $$
DECLARE
  live boolean := p_mode = 'LIVE';
  slot text;
  message text;
BEGIN
  IF live AND p_cost_cents > 0
     AND post_ledger_entry(p_account, -p_cost_cents, 'sms_outbound', p_charge_reference,
                           p_charge_description) IS NULL
     AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.kind = 'sms_outbound'
                     AND l.reference_id = p_charge_reference) THEN
    RETURN QUERY SELECT 'INSUFFICIENT_BALANCE', NULL::text, NULL::text;
    RETURN;
  END IF;
  IF live THEN
    slot := reserve_send_slot(p_account, p_from, p_parts, p_toll_free_per_minute,
                              p_local_per_minute);
    IF slot IS NULL THEN
      RETURN QUERY SELECT 'PHONE_NUMBER_NOT_OWNED', NULL::text, NULL::text;
      RETURN;
    END IF;
  END IF;
  IF NOT p_queue_again THEN
    message := insert_outbound_message(p_id, p_account, p_from, p_to, p_body, p_parts, p_mode,
                                       p_cost_cents, p_part_price_cents, slot::timestamptz,
                                       p_body_sha256, p_consent_type);
  ELSE
    UPDATE messages m SET status = 'QUEUED', error_code = NULL, error_message = NULL,
      handoff_started_at = NULL, carrier_message_id = NULL, send_attempt = p_attempt,
      segment_count = p_parts, cost_cents = p_cost_cents, part_price_cents = p_part_price_cents,
      send_at = slot::timestamptz, updated_at = now()
    WHERE m.id = p_id AND failed_before_carrier(m.status, m.error_code);
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'ALREADY_QUEUED', NULL::text, NULL::text;
      RETURN;
    END IF;
  END IF;
  INSERT INTO account_send_hours AS h (account_id, mode, hour, sent)
  VALUES (p_account, p_mode, date_trunc('hour', now()), 1)
  ON CONFLICT (account_id, mode, hour) DO UPDATE SET sent = h.sent + 1;
  PERFORM raise_event(p_event_id, p_account, 'message.queued', live, p_event_record,
                      p_events_topic);
  INSERT INTO outbox (topic, record_key, payload)
  VALUES (p_outbound_topic, p_from, p_outbound_record);
  RETURN QUERY SELECT NULL::text, slot, message;
END $$;
