-- The caller behind a key hash: the key, its account, its fences (its allow and deny lists, and
-- whether it must find every recipient on an allow list), and whether its last-used stamp is
-- stale as of p_now (written at most once a minute per key). A key past its expiry (an OAuth
-- access token) reads as revoked; an access token carries the resource it was approved for and
-- its grant.
CREATE OR REPLACE FUNCTION api_key_caller(p_key_hash text, p_now timestamptz)
RETURNS TABLE (key_id text, account_id text, mode text, permissions text, revoked int,
               account_status text, fenced int, allow_list_required int, allow_list_id text,
               deny_list_id text, stale int, requests_per_second int, resource text,
               oauth_grant_id text, session int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT k.id, k.account_id, k.mode, k.permissions::text,
         (k.revoked_at IS NOT NULL OR coalesce(k.expires_at <= p_now, false))::int,
         a.status,
         (k.default_deny OR k.allow_list_id IS NOT NULL OR k.deny_list_id IS NOT NULL)::int,
         (k.default_deny OR k.allow_list_id IS NOT NULL)::int,
         k.allow_list_id, k.deny_list_id,
         (k.last_used_at IS NULL OR k.last_used_at < p_now - interval '60 seconds')::int,
         a.requests_per_second, k.oauth_resource, k.oauth_grant_id, (k.kind = 'SESSION')::int
  FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = p_key_hash;
END $$;
