-- Live messaging: the charge and its attempts, per-number pacing, destination lookups, the
-- undeliverable-number counter, receipts that arrive before the send result, send limits and
-- automatic account protection.

-- A message may be queued again after it failed before reaching the carrier (a retry with the
-- same Idempotency-Key): each attempt is charged and refunded under its own ledger reference.
ALTER TABLE messages ADD COLUMN send_attempt integer NOT NULL DEFAULT 1 CHECK (send_attempt >= 1);
-- The price of one part when the send was accepted: the settled cost is this times the parts
-- the carrier counted.
ALTER TABLE messages ADD COLUMN part_price_cents integer NOT NULL DEFAULT 0;
-- When the sending number's pace lets this message go (null: at once, e.g. automatic replies).
ALTER TABLE messages ADD COLUMN send_at timestamptz;
-- Fan-out limit: how many distinct recipients one body reached.
ALTER TABLE messages ADD COLUMN body_sha256 text;

-- Queued messages are few; the sender's sweep and the stuck-work reconciler read them here.
CREATE INDEX messages_queued ON messages (send_at) WHERE status = 'QUEUED';
CREATE INDEX messages_recipient_window ON messages (account_id, mode, to_number, created_at)
  WHERE direction = 'OUTBOUND';
CREATE INDEX messages_fanout_window ON messages (account_id, mode, body_sha256, created_at)
  WHERE body_sha256 IS NOT NULL;
-- Message retention: the purge walks old bodies in creation order.
CREATE INDEX messages_unpurged ON messages (created_at) WHERE body IS NOT NULL;

-- Pacing: the moment the number's next part may go; each accepted send moves it on.
ALTER TABLE phone_numbers ADD COLUMN next_send_at timestamptz;

-- The carrier's number lookup, cached (a line type rarely changes).
CREATE TABLE number_lookups (
  phone_number text PRIMARY KEY,
  line_type    text NOT NULL CHECK (line_type IN ('mobile', 'landline', 'voip', 'unknown')),
  looked_up_at timestamptz NOT NULL DEFAULT now()
);

-- Carrier failures in a row for a destination, across every customer (LIVE traffic only).
CREATE TABLE undeliverable_numbers (
  phone_number         text PRIMARY KEY,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_failure_at      timestamptz,
  last_failure_code    text
);

-- A receipt that arrived before the sender recorded the carrier's answer: applied when it is.
CREATE TABLE early_receipts (
  carrier_message_id text PRIMARY KEY,
  payload            jsonb NOT NULL,
  received_at        timestamptz NOT NULL DEFAULT now()
);

-- Sends per account and hour: the rolling daily limit sums the last 24 of them.
CREATE TABLE account_send_hours (
  account_id text NOT NULL REFERENCES accounts (id),
  mode       text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  hour       timestamptz NOT NULL,
  sent       integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, mode, hour)
);

ALTER TABLE accounts ADD COLUMN daily_send_limit integer CHECK (daily_send_limit >= 0);
ALTER TABLE accounts ADD COLUMN sms_paused_until timestamptz;
ALTER TABLE accounts ADD COLUMN sms_pause_reason text
  CHECK (sms_pause_reason IN ('FAILURE_RATE', 'OPT_OUT_RATE'));
ALTER TABLE accounts ADD COLUMN delivery_warning_at timestamptz;
ALTER TABLE accounts ADD COLUMN spend_warning_at timestamptz;

-- The spend warning reads an account's recent SMS charges.
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at);

-- Account events are also emailed to the owner, once per event however often it is replayed.
CREATE TABLE owner_event_emails (
  event_id uuid PRIMARY KEY,
  sent_at  timestamptz NOT NULL DEFAULT now()
);
