-- Account security (issue 49, items 2 to 4): sessions the owner can list and end, browsers the
-- owner proved (so that strangers' wrong passwords never lock them out), single-use links
-- emailed to the owner (password reset, unlock, a new email's proof), and the email owed.

-- A dashboard session as a row of its own: when and from where it began. Its two keys (LIVE and
-- TEST) name it; ending it revokes both. Keys of sessions opened before this migration name none
-- and simply expire (12 hours).
CREATE TABLE dashboard_sessions (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id),
  client_ip    text NOT NULL,
  user_agent   text,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  ended_at     timestamptz,
  ended_reason text CHECK (ended_reason IN ('signed_out', 'ended_by_owner', 'signed_out_everywhere',
                                            'password_changed', 'password_reset')),
  CHECK ((ended_at IS NULL) = (ended_reason IS NULL))
);
CREATE INDEX dashboard_sessions_account ON dashboard_sessions (account_id, created_at DESC);
ALTER TABLE api_keys ADD COLUMN session_id text REFERENCES dashboard_sessions (id);
CREATE INDEX api_keys_session ON api_keys (session_id) WHERE session_id IS NOT NULL;

-- Browsers the owner proved: the right password at sign-in, or an unlock or reset link
-- followed. Each holds a token in an HttpOnly cookie (stored here as its SHA-256), and its wrong
-- passwords are counted under a subject of its own (password_failures 'browser:<id>').
CREATE TABLE trusted_browsers (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id),
  token_hash   text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX trusted_browsers_account ON trusted_browsers (account_id);

-- Single-use links emailed to the owner, stored as the SHA-256 of their token.
CREATE TABLE owner_links (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  purpose     text NOT NULL CHECK (purpose IN ('password_reset', 'unlock', 'email_change')),
  token_hash  text NOT NULL UNIQUE,
  new_email   text,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  CHECK ((purpose = 'email_change') = (new_email IS NOT NULL))
);
CREATE INDEX owner_links_account ON owner_links (account_id, purpose, created_at DESC);

-- Email owed to an owner (links, notices), written in the transaction that causes it and sent
-- once it commits; the body is cleared once sent, since a link in it is a secret.
CREATE TABLE owner_emails (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  to_address  text NOT NULL,
  subject     text NOT NULL,
  body        text,
  created_at  timestamptz NOT NULL,
  sent_at     timestamptz,
  CHECK (sent_at IS NULL OR body IS NULL)
);
CREATE INDEX owner_emails_unsent ON owner_emails (created_at) WHERE sent_at IS NULL;
