-- CASL compliance records: consents, consent batches, opt-outs, double opt-in confirmations,
-- erasures; and what the inbound pipeline keeps (keyword actions, the inbound cap notice).
-- Every record carries the mode of the key that made it: TEST records only ever count for
-- TEST sends (docs/decisions.md, "CASL compliance").

CREATE TABLE consent_batches (
  id         text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  mode       text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  source     text NOT NULL CHECK (source IN ('api', 'dashboard')),
  file_name  text,
  attested   boolean NOT NULL,
  defaults   jsonb NOT NULL,
  counts     jsonb NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE opt_in_confirmations (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id),
  mode             text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  status           text NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'EXPIRED', 'DECLINED')),
  from_number      text NOT NULL,  -- the account's toll-free number that asked
  to_number        text NOT NULL,  -- the subscriber
  brand_name       text NOT NULL,
  language         text NOT NULL CHECK (language IN ('en', 'fr')),
  message_id       text REFERENCES messages (id),
  expires_at       timestamptz NOT NULL,
  confirmed_at     timestamptz,
  reply_message_id text REFERENCES messages (id),
  created_at       timestamptz NOT NULL DEFAULT now()
);
-- A newer request replaces the older one: one PENDING per sending number and subscriber.
CREATE UNIQUE INDEX opt_in_confirmations_pending
  ON opt_in_confirmations (account_id, mode, from_number, to_number) WHERE status = 'PENDING';
CREATE INDEX opt_in_confirmations_account ON opt_in_confirmations (account_id, mode, created_at DESC);

CREATE TABLE consents (
  id                            text PRIMARY KEY,
  account_id                    text NOT NULL REFERENCES accounts (id),
  mode                          text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  channel                       text NOT NULL CHECK (channel IN ('SMS', 'EMAIL')),
  phone_number                  text,
  email_address                 text,
  consent_type                  text NOT NULL CHECK (consent_type IN ('EXPRESS', 'IMPLIED')),
  status                        text NOT NULL DEFAULT 'ACTIVE'
                                CHECK (status IN ('ACTIVE', 'EXPIRED', 'REVOKED')),
  source_description            text,
  source_ip                     text,
  source_url                    text,
  relationship_type             text,
  last_transaction_date         text,
  expires_at                    timestamptz,
  granted_at                    timestamptz NOT NULL DEFAULT now(),
  revoked_at                    timestamptz,
  revoked_reason                text,
  double_opt_in_confirmed_at    timestamptz,
  double_opt_in_confirmation_id text REFERENCES opt_in_confirmations (id),
  consent_batch_id              text REFERENCES consent_batches (id),
  created_at                    timestamptz NOT NULL DEFAULT now(),
  CHECK ((phone_number IS NULL) <> (email_address IS NULL)),
  CHECK (consent_type = 'IMPLIED' OR expires_at IS NULL)  -- express consent never expires
);
CREATE INDEX consents_active ON consents (account_id, mode, phone_number) WHERE status = 'ACTIVE';
CREATE INDEX consents_account ON consents (account_id, mode, created_at DESC, id DESC);
CREATE INDEX consents_batch ON consents (consent_batch_id) WHERE consent_batch_id IS NOT NULL;

CREATE TABLE opt_outs (
  id                  text PRIMARY KEY,
  account_id          text NOT NULL REFERENCES accounts (id),
  mode                text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  channel             text NOT NULL DEFAULT 'SMS' CHECK (channel IN ('SMS', 'EMAIL')),
  phone_number        text NOT NULL,  -- the subscriber
  from_number         text NOT NULL,  -- the account's number the opt-out applies to
  keyword_used        text,           -- null when recorded through the API
  inbound_message_id  text REFERENCES messages (id),
  opted_out_at        timestamptz NOT NULL DEFAULT now(),
  reinstated_at       timestamptz,
  reinstate_keyword   text,
  reinstate_message_id text REFERENCES messages (id)
);
-- One opt-out in force per subscriber and sending number.
CREATE UNIQUE INDEX opt_outs_in_force ON opt_outs (account_id, mode, phone_number, from_number)
  WHERE reinstated_at IS NULL;
CREATE INDEX opt_outs_account ON opt_outs (account_id, mode, opted_out_at DESC, id DESC);

-- Proof that a subscriber's data was erased, without keeping the number itself.
CREATE TABLE erasures (
  id                  text PRIMARY KEY,
  account_id          text NOT NULL REFERENCES accounts (id),
  phone_number_sha256 text NOT NULL,
  counts              jsonb NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now()
);

-- The inbound pipeline: what the first word of a received text did, and when the account was
-- last told it reached its inbound cap (at most once per 24 hours).
ALTER TABLE messages ADD COLUMN keyword_action text
  CHECK (keyword_action IN ('opted_out', 'reinstated', 'help', 'ignored'));
ALTER TABLE messages ADD COLUMN inbound_capped boolean NOT NULL DEFAULT false;
CREATE INDEX messages_inbound_window ON messages (account_id, created_at)
  WHERE direction = 'INBOUND' AND mode = 'LIVE';
ALTER TABLE accounts ADD COLUMN inbound_sms_capped_notified_at timestamptz;

CREATE FUNCTION api_consent(c consents) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', c.id, 'accountId', c.account_id, 'channel', c.channel,
    'phoneNumber', c.phone_number, 'emailAddress', c.email_address,
    'consentType', c.consent_type, 'status', c.status,
    'sourceDescription', c.source_description, 'sourceIp', c.source_ip,
    'sourceUrl', c.source_url, 'relationshipType', c.relationship_type,
    'expiresAt', iso_ts(c.expires_at), 'grantedAt', iso_ts(c.granted_at),
    'revokedAt', iso_ts(c.revoked_at), 'revokedReason', c.revoked_reason,
    'doubleOptInConfirmedAt', iso_ts(c.double_opt_in_confirmed_at),
    'doubleOptInConfirmationId', c.double_opt_in_confirmation_id,
    'consentBatchId', c.consent_batch_id)
$$;

CREATE FUNCTION api_opt_out(o opt_outs) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', o.id, 'accountId', o.account_id, 'channel', o.channel,
    'phoneNumber', o.phone_number, 'fromNumber', o.from_number, 'fromAddress', NULL,
    'emailAddress', NULL, 'keywordUsed', o.keyword_used,
    'optedOutAt', iso_ts(o.opted_out_at), 'reinstatedAt', iso_ts(o.reinstated_at),
    'reinstateKeyword', o.reinstate_keyword)
$$;

CREATE FUNCTION api_consent_batch(b consent_batches, with_defaults boolean) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', b.id, 'source', b.source, 'file_name', b.file_name, 'attested', b.attested,
    'counts', b.counts, 'revoked_at', iso_ts(b.revoked_at), 'created_at', iso_ts(b.created_at))
    || CASE WHEN with_defaults THEN jsonb_build_object('defaults', b.defaults) ELSE '{}'::jsonb END
$$;

CREATE FUNCTION api_opt_in_confirmation(o opt_in_confirmations) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', o.id, 'status', o.status, 'from', o.from_number, 'to', o.to_number,
    'brand_name', o.brand_name, 'language', o.language, 'message_id', o.message_id,
    'expires_at', iso_ts(o.expires_at), 'confirmed_at', iso_ts(o.confirmed_at),
    'reply_message_id', o.reply_message_id, 'created_at', iso_ts(o.created_at))
$$;
