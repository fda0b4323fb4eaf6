CREATE OR REPLACE FUNCTION api_ledger_entry(e ledger_entries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', 'txn_' || e.id, 'amount_cents', e.amount_cents,
    'balance_after_cents', e.balance_after_cents, 'kind', e.kind,
    'reference_id', e.reference_id, 'description', e.description,
    'created_at', iso_ts(e.created_at))
$$;
