-- Security (issue 34, item 1): a connected app kept access after its connection ended, since
-- what its token created outlived the grant. A grant's token may no longer create or rotate
-- API keys, and a webhook endpoint it registers belongs to the grant and is deleted when the
-- grant ends (db/functions/end_oauth_grant.sql).
ALTER TABLE webhooks ADD COLUMN oauth_grant_id text REFERENCES oauth_grants (id);
CREATE INDEX webhooks_oauth_grant ON webhooks (oauth_grant_id) WHERE oauth_grant_id IS NOT NULL;
-- api_key_caller also answers the token's grant: its new text is in db/functions.
DROP FUNCTION IF EXISTS api_key_caller(text, timestamptz);
