-- OAuth 2.1 connections (issue 25; docs/oauth.md). A client is registered (RFC 7591, a dcr_
-- id) or known by its metadata document's URL, fetched and cached. The account owner's
-- approval makes a code; the code makes a grant, which holds an API key (the access token,
-- with an expiry) and a refresh token, each replaced on use.
CREATE TABLE oauth_clients (
  id            text PRIMARY KEY,  -- dcr_… or the metadata document's URL
  kind          text NOT NULL CHECK (kind IN ('REGISTERED', 'METADATA_DOCUMENT')),
  client_name   text NOT NULL,
  redirect_uris jsonb NOT NULL,
  client_uri    text,
  registered_by text,  -- the client address that registered it (REGISTERED)
  created_at    timestamptz NOT NULL DEFAULT now(),
  fresh_until   timestamptz  -- METADATA_DOCUMENT: fetched again after this
);

CREATE TABLE oauth_grants (
  id                 text PRIMARY KEY,  -- ogr_…
  account_id         text NOT NULL REFERENCES accounts (id),
  client_id          text NOT NULL REFERENCES oauth_clients (id),
  mode               text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  permissions        jsonb NOT NULL,
  resource           text,
  refresh_token_hash text UNIQUE,
  refresh_expires_at timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  revoked_at         timestamptz,
  revoked_because    text
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

-- Refresh tokens a rotation replaced: one presented again means it leaked, and the grant goes.
CREATE TABLE oauth_spent_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id   text NOT NULL REFERENCES oauth_grants (id),
  spent_at   timestamptz NOT NULL
);

CREATE TABLE oauth_codes (
  code_hash      text PRIMARY KEY,
  client_id      text NOT NULL REFERENCES oauth_clients (id),
  account_id     text NOT NULL REFERENCES accounts (id),
  mode           text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  permissions    jsonb NOT NULL,
  resource       text,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  grant_id       text REFERENCES oauth_grants (id)  -- what its one use made
);

-- An access token carries its grant's resource itself: every request reads it (RFC 8707), and
-- a join to the grant would cost each of them a lookup.
ALTER TABLE api_keys ADD COLUMN oauth_grant_id text REFERENCES oauth_grants (id),
                     ADD COLUMN expires_at timestamptz,
                     ADD COLUMN oauth_resource text;
CREATE INDEX api_keys_oauth_grant ON api_keys (oauth_grant_id) WHERE oauth_grant_id IS NOT NULL;

-- api_key_caller also answers an access token's resource: its new text is in db/functions.
DROP FUNCTION IF EXISTS api_key_caller(text, timestamptz);
