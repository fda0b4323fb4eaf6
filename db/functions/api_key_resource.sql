CREATE OR REPLACE FUNCTION api_key_resource(k api_keys) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', k.id, 'keyPrefix', k.key_prefix, 'mode', k.mode, 'label', k.label,
    'createdAt', iso_ts(k.created_at), 'lastUsedAt', iso_ts(k.last_used_at),
    'defaultDeny', k.default_deny, 'permissions', k.permissions,
    'email_domain_ids', k.email_domain_ids, 'oauth_grant', k.oauth_grant,
    'allow_list_id', k.allow_list_id, 'deny_list_id', k.deny_list_id,
    'revokedAt', iso_ts(k.revoked_at), 'expiresAt', iso_ts(k.expires_at))
$$;
