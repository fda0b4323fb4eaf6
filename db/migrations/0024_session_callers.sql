-- api_key_caller also answers whether the key is a dashboard session's (its new text is in
-- db/functions): a session's consent batches are recorded as source 'dashboard', and it makes
-- keys only with the password (docs/dashboard.md).
DROP FUNCTION IF EXISTS api_key_caller(text, timestamptz);
