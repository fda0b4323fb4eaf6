-- Foundation: accounts, API keys, prices, the ledger, top-ups, owner phone verification,
-- messages, idempotency keys, events, webhooks and their delivery attempts, and the outbox.

CREATE FUNCTION iso_ts(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

CREATE TABLE accounts (
  id                         text PRIMARY KEY,
  name                       text NOT NULL,
  email                      text NOT NULL,
  password_hash              text NOT NULL,
  status                     text NOT NULL DEFAULT 'PENDING_PAYMENT'
                             CHECK (status IN ('PENDING_PAYMENT', 'ACTIVE', 'SUSPENDED', 'CLOSED')),
  status_reason              text,
  balance_cents              bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  payment_customer_id        text,
  email_verified_at          timestamptz,
  verified_phone             text,
  phone_verified_at          timestamptz,
  email_undeliverable        boolean NOT NULL DEFAULT false,
  email_undeliverable_at     timestamptz,
  email_undeliverable_reason text CHECK (email_undeliverable_reason IN ('BOUNCE', 'COMPLAINT')),
  terms_accepted_at          timestamptz,
  terms_version              text,
  phone_number_limit         integer NOT NULL DEFAULT 5 CHECK (phone_number_limit >= 0),
  inbound_sms_daily_cap      integer NOT NULL DEFAULT 0 CHECK (inbound_sms_daily_cap >= 0),
  created_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

CREATE TABLE api_keys (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id),
  key_hash         text NOT NULL UNIQUE,
  key_prefix       text NOT NULL,
  mode             text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  kind             text NOT NULL DEFAULT 'USER' CHECK (kind IN ('USER', 'SESSION')),
  label            text,
  permissions      jsonb NOT NULL,
  default_deny     boolean NOT NULL DEFAULT false,
  allow_list_id    text,
  deny_list_id     text,
  email_domain_ids jsonb,
  oauth_grant      boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_used_at     timestamptz,
  revoked_at       timestamptz,
  replaced_by      text REFERENCES api_keys (id)
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at DESC);

-- The one price table: nothing else hard-codes a price.
CREATE TABLE prices (
  code        text PRIMARY KEY,
  cents       integer NOT NULL CHECK (cents >= 0),
  unit        text NOT NULL,
  description text NOT NULL
);
INSERT INTO prices (code, cents, unit, description) VALUES
  ('sms_outbound_part', 2, 'sms_part', 'Outbound SMS, per part'),
  ('sms_inbound_part', 1, 'sms_part', 'Inbound SMS, per part'),
  ('local_number_monthly', 150, 'month', 'Local number rent, per month'),
  ('toll_free_number_monthly', 300, 'month', 'Toll-free number rent, per month'),
  ('number_activation_fee', 100, 'number', 'One-time activation fee per number'),
  ('verification', 5, 'verification', 'SMS verification (Verify), per code sent');

-- Append-only: every change of accounts.balance_cents is one row here, in the same transaction.
CREATE TABLE ledger_entries (
  id                  bigserial PRIMARY KEY,
  account_id          text NOT NULL REFERENCES accounts (id),
  amount_cents        bigint NOT NULL CHECK (amount_cents <> 0),
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  kind                text NOT NULL,
  reference_id        text NOT NULL,
  description         text NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, reference_id)  -- the same cause can never move money twice
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id DESC);

CREATE TABLE top_ups (
  id                 text PRIMARY KEY,
  account_id         text NOT NULL REFERENCES accounts (id),
  amount_cents       bigint NOT NULL CHECK (amount_cents > 0),
  status             text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED')),
  provider           text NOT NULL,
  provider_charge_id text,
  decline_reason     text,
  idempotency_key    text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, idempotency_key)
);

CREATE TABLE owner_phone_verifications (
  account_id   text PRIMARY KEY REFERENCES accounts (id),
  phone_number text NOT NULL,
  code_hash    text NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
  id                 text PRIMARY KEY,
  account_id         text NOT NULL REFERENCES accounts (id),
  direction          text NOT NULL CHECK (direction IN ('OUTBOUND', 'INBOUND')),
  from_number        text NOT NULL,
  to_number          text NOT NULL,
  body               text,
  body_purged        boolean NOT NULL DEFAULT false,
  status             text NOT NULL
                     CHECK (status IN ('QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'FAILED', 'UNDELIVERED', 'RECEIVED')),
  segment_count      integer,
  mode               text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  is_verification    boolean NOT NULL DEFAULT false,
  auto_reply_keyword text,
  cost_cents         bigint NOT NULL DEFAULT 0,
  error_code         text,
  error_message      text,
  carrier_message_id text UNIQUE,
  casl_consent_type  text,
  dncl_exemption     text,
  handoff_started_at timestamptz,
  sent_at            timestamptz,
  delivered_at       timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_account_created ON messages (account_id, created_at DESC);

-- Idempotency-Key of POST /v1/messages: kept 24 hours, then the key may be used again.
CREATE TABLE message_idempotency_keys (
  account_id      text NOT NULL REFERENCES accounts (id),
  mode            text NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint     text NOT NULL,
  message_id      text NOT NULL REFERENCES messages (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, mode, idempotency_key)
);

-- Every event raised, with its id fixed at the source; deliveries and replays read it here.
CREATE TABLE events (
  id         uuid PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  type       text NOT NULL,
  livemode   boolean NOT NULL,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_account_created ON events (account_id, created_at DESC);

CREATE TABLE webhooks (
  id                         text PRIMARY KEY,
  account_id                 text NOT NULL REFERENCES accounts (id),
  url                        text NOT NULL,
  events                     jsonb NOT NULL,
  active                     boolean NOT NULL DEFAULT true,
  signing_secret             text NOT NULL,
  previous_secret            text,
  previous_secret_expires_at timestamptz,
  deactivated_reason         text,
  deactivated_at             timestamptz,
  failing_since              timestamptz,
  failed_events              integer NOT NULL DEFAULT 0,
  last_success_at            timestamptz,
  last_failure_at            timestamptz,
  last_failure_reason        text,
  secret_rotated_at          timestamptz,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  deleted_at                 timestamptz
);
CREATE INDEX webhooks_account ON webhooks (account_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id           text PRIMARY KEY,
  webhook_id   text NOT NULL REFERENCES webhooks (id),
  event_id     uuid NOT NULL REFERENCES events (id),
  event_type   text NOT NULL,
  attempt      integer NOT NULL,
  success      boolean NOT NULL,
  http_status  integer,
  error_reason text,
  duration_ms  integer,
  occurred_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, event_id, attempt)
);

-- Transactional outbox (pipeline rule 1): records written with the change that caused them,
-- published to Kafka after commit, republished by the sweeper if a crash intervened.
CREATE TABLE outbox (
  id           bigserial PRIMARY KEY,
  topic        text NOT NULL,
  record_key   text NOT NULL,
  payload      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;

-- Resource shapes, rendered where the data is so that every route answers the same fields.
CREATE FUNCTION api_account(a accounts) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', a.id, 'name', a.name, 'email', a.email,
    'payment_customer_id', a.payment_customer_id,
    'email_verified_at', iso_ts(a.email_verified_at),
    'status', a.status, 'balance_cents', a.balance_cents,
    'verified_phone', a.verified_phone, 'phone_verified_at', iso_ts(a.phone_verified_at),
    'email_undeliverable', a.email_undeliverable,
    'email_undeliverable_at', iso_ts(a.email_undeliverable_at),
    'email_undeliverable_reason', a.email_undeliverable_reason,
    'terms_accepted_at', iso_ts(a.terms_accepted_at), 'terms_version', a.terms_version,
    'created_at', iso_ts(a.created_at))
$$;

CREATE FUNCTION api_key_resource(k api_keys) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', k.id, 'keyPrefix', k.key_prefix, 'mode', k.mode, 'label', k.label,
    'createdAt', iso_ts(k.created_at), 'lastUsedAt', iso_ts(k.last_used_at),
    'defaultDeny', k.default_deny, 'permissions', k.permissions,
    'email_domain_ids', k.email_domain_ids, 'oauth_grant', k.oauth_grant,
    'allow_list_id', k.allow_list_id, 'deny_list_id', k.deny_list_id,
    'revokedAt', iso_ts(k.revoked_at))
$$;

CREATE FUNCTION api_message(m messages) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', m.id, 'direction', m.direction, 'from', m.from_number, 'to', m.to_number,
    'body', m.body, 'body_purged', m.body_purged, 'status', m.status,
    'segment_count', m.segment_count, 'mode', m.mode, 'is_verification', m.is_verification,
    'auto_reply_keyword', m.auto_reply_keyword, 'cost_cents', m.cost_cents,
    'error_code', m.error_code, 'error_message', m.error_message,
    'sent_at', iso_ts(m.sent_at), 'created_at', iso_ts(m.created_at),
    'casl_consent_type', m.casl_consent_type, 'dncl_exemption', m.dncl_exemption,
    'delivered_at', iso_ts(m.delivered_at))
$$;

CREATE FUNCTION api_webhook(w webhooks) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', w.id, 'url', w.url, 'events', w.events, 'active', w.active,
    'deactivated_reason', w.deactivated_reason, 'deactivated_at', iso_ts(w.deactivated_at),
    'failing_since', iso_ts(w.failing_since), 'failed_events', w.failed_events,
    'last_success_at', iso_ts(w.last_success_at), 'last_failure_at', iso_ts(w.last_failure_at),
    'last_failure_reason', w.last_failure_reason, 'secret_rotated_at', iso_ts(w.secret_rotated_at),
    'created_at', iso_ts(w.created_at))
$$;

CREATE FUNCTION api_ledger_entry(e ledger_entries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', 'txn_' || e.id, 'amount_cents', e.amount_cents,
    'balance_after_cents', e.balance_after_cents, 'kind', e.kind,
    'reference_id', e.reference_id, 'description', e.description,
    'created_at', iso_ts(e.created_at))
$$;

-- AccountDocument (GET /v1/accounts/{id}); the phone-number and inbound issues extend it.
CREATE FUNCTION api_account_document(a accounts) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'account', api_account(a) || jsonb_build_object(
      'monthly_rent_cents', 0,
      'low_balance', false,
      'phone_number_limit', a.phone_number_limit,
      'phone_numbers_used', 0,
      'inbound_sms_daily_cap', a.inbound_sms_daily_cap,
      'inbound_sms_received_24h',
        (SELECT count(*) FROM messages m WHERE m.account_id = a.id AND m.direction = 'INBOUND'
           AND m.mode = 'LIVE' AND m.created_at > now() - interval '24 hours')),
    'api_keys', COALESCE(
      (SELECT jsonb_agg(api_key_resource(k) ORDER BY k.created_at) FROM api_keys k
        WHERE k.account_id = a.id AND k.kind = 'USER' AND k.revoked_at IS NULL), '[]'::jsonb),
    'features', jsonb_build_object('email', false))
$$;
