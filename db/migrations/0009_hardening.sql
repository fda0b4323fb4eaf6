-- Hardening (issue 19): limits on owner-verification texts, and webhook endpoints that keep
-- the mode of the key that created them.

-- Every owner-verification code sent, for the limits per destination number and per account
-- in a rolling day (api/routes/owner_phone.cpp). Rows older than a day are dropped as codes
-- are sent.
CREATE TABLE owner_phone_codes_sent (
  account_id   text NOT NULL REFERENCES accounts (id),
  phone_number text NOT NULL,
  sent_at      timestamptz NOT NULL
);
CREATE INDEX owner_phone_codes_sent_number ON owner_phone_codes_sent (phone_number, sent_at);
CREATE INDEX owner_phone_codes_sent_account ON owner_phone_codes_sent (account_id, sent_at);

-- Codes were stored as SHA-256(account:code): a dump gave any code back from a million
-- candidates. They are now an HMAC under a server secret; codes hashed the old way can no
-- longer be confirmed, and are dropped (they lived ten minutes).
DELETE FROM owner_phone_verifications;

-- The mode of the key that registered the endpoint (docs/decisions.md, "Webhooks", Modes): a
-- TEST-created endpoint receives only livemode false events, and TEST keys see and manage only
-- TEST-created endpoints. Endpoints from before this change were made by either key and keep
-- receiving everything, as LIVE-created ones.
ALTER TABLE webhooks ADD COLUMN mode text NOT NULL DEFAULT 'LIVE' CHECK (mode IN ('LIVE', 'TEST'));

DROP FUNCTION webhook_endpoints_owed(text, jsonb, uuid, timestamptz);
CREATE FUNCTION webhook_endpoints_owed(p_account text, p_types jsonb, p_event uuid,
                                       p_livemode boolean, p_at timestamptz)
RETURNS TABLE (id text, url text, signing_secret text, previous_secret text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT w.id, w.url, w.signing_secret, webhook_previous_secret(w, p_at)
  FROM webhooks w WHERE w.account_id = p_account AND w.active AND w.deleted_at IS NULL
  AND w.events @> p_types
  AND (w.mode = 'LIVE' OR NOT p_livemode)
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id
                  AND d.event_id = p_event AND d.success)
  AND NOT EXISTS (SELECT 1 FROM webhook_retries r WHERE r.webhook_id = w.id
                  AND r.event_id = p_event)
  AND NOT EXISTS (SELECT 1 FROM webhook_dead_letters l WHERE l.webhook_id = w.id
                  AND l.event_id = p_event);
END $$;

-- The Webhook resource shows the mode it was registered in.
CREATE OR REPLACE FUNCTION api_webhook(w webhooks) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', w.id, 'url', w.url, 'events', w.events, 'active', w.active, 'mode', w.mode,
    'deactivated_reason', w.deactivated_reason, 'deactivated_at', iso_ts(w.deactivated_at),
    'failing_since', iso_ts(w.failing_since), 'failed_events', w.failed_events,
    'last_success_at', iso_ts(w.last_success_at), 'last_failure_at', iso_ts(w.last_failure_at),
    'last_failure_reason', w.last_failure_reason, 'secret_rotated_at', iso_ts(w.secret_rotated_at),
    'created_at', iso_ts(w.created_at))
$$;
