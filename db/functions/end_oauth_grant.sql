-- Ends an OAuth grant and everything it holds, in the caller's transaction: the grant (its
-- refresh token stops), every access key it made, and the webhook endpoints its tokens
-- registered, deleted as DELETE /v1/webhooks/{id} deletes one (gone from every list, pending
-- retries dropped, no further delivery). No connected app keeps access after its connection
-- ends (docs/oauth.md). Returns 1 when the grant was still live.
CREATE OR REPLACE FUNCTION end_oauth_grant(p_grant_id text, p_because text, p_now timestamptz)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  ended int;
BEGIN
  UPDATE oauth_grants SET revoked_at = p_now, revoked_because = p_because
  WHERE id = p_grant_id AND revoked_at IS NULL;
  GET DIAGNOSTICS ended = ROW_COUNT;
  UPDATE api_keys SET revoked_at = p_now WHERE oauth_grant_id = p_grant_id AND revoked_at IS NULL;
  DELETE FROM webhook_retries r USING webhooks w
  WHERE r.webhook_id = w.id AND w.oauth_grant_id = p_grant_id AND w.deleted_at IS NULL;
  UPDATE webhooks SET deleted_at = p_now, active = false
  WHERE oauth_grant_id = p_grant_id AND deleted_at IS NULL;
  RETURN ended;
END $$;
