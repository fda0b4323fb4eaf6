CREATE OR REPLACE FUNCTION api_opt_out(o opt_outs) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', o.id, 'accountId', o.account_id, 'channel', o.channel,
    'phoneNumber', o.phone_number, 'fromNumber', o.from_number, 'fromAddress', NULL,
    'emailAddress', NULL, 'keywordUsed', o.keyword_used,
    'optedOutAt', iso_ts(o.opted_out_at), 'reinstatedAt', iso_ts(o.reinstated_at),
    'reinstateKeyword', o.reinstate_keyword)
$$;
