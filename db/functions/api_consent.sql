CREATE OR REPLACE FUNCTION api_consent(c consents) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', c.id, 'accountId', c.account_id, 'channel', c.channel,
    'phoneNumber', c.phone_number, 'emailAddress', c.email_address,
    'consentType', c.consent_type, 'status', c.status,
    'sourceDescription', c.source_description, 'sourceIp', c.source_ip,
    'sourceUrl', c.source_url, 'relationshipType', c.relationship_type,
    'expiresAt', iso_ts(c.expires_at), 'grantedAt', iso_ts(c.granted_at),
    'revokedAt', iso_ts(c.revoked_at), 'revokedReason', c.revoked_reason,
    'doubleOptInConfirmedAt', iso_ts(c.double_opt_in_confirmed_at),
    'doubleOptInConfirmationId', c.double_opt_in_confirmation_id,
    'consentBatchId', c.consent_batch_id)
$$;
