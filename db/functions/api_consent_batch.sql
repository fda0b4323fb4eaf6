CREATE OR REPLACE FUNCTION api_consent_batch(b consent_batches, with_defaults boolean) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', b.id, 'source', b.source, 'file_name', b.file_name, 'attested', b.attested,
    'counts', b.counts, 'revoked_at', iso_ts(b.revoked_at), 'created_at', iso_ts(b.created_at))
    || CASE WHEN with_defaults THEN jsonb_build_object('defaults', b.defaults) ELSE '{}'::jsonb END
$$;
