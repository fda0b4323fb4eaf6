-- SMS verifications (spec Verification; POST /v1/verifications): one-time codes texted to a
-- subscriber and checked. The code is kept only as an HMAC under VERIFICATION_CODE_SECRET
-- (code_hash), and, for a LIVE code until the sender has handed its text to the carrier, sealed
-- (AES-GCM) under a key derived from the same secret (sealed_code): a dump of the database alone
-- gives no code back. `status` is pending, verified, expired (also when superseded by a newer
-- verification of the number) or max_attempts; a pending one past expires_at is shown expired.
-- A LIVE verification's text is an ordinary outbound message (is_verification, body null).
CREATE TABLE verifications (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id),
  mode         text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  phone_number text NOT NULL,
  from_number  text NOT NULL,
  app_name     text,
  code_length  integer NOT NULL CHECK (code_length BETWEEN 4 AND 10),
  code_hash    text NOT NULL,
  sealed_code  text,
  status       text NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'verified', 'expired', 'max_attempts')),
  attempts     integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  cost_cents   integer NOT NULL DEFAULT 0,
  message_id   text REFERENCES messages (id),
  expires_at   timestamptz NOT NULL,
  verified_at  timestamptz,
  created_at   timestamptz NOT NULL
);
CREATE INDEX verifications_newest ON verifications (account_id, mode, created_at DESC, id DESC);
CREATE INDEX verifications_number ON verifications (account_id, mode, phone_number, created_at);
CREATE UNIQUE INDEX verifications_message ON verifications (message_id)
  WHERE message_id IS NOT NULL;
