-- A balance change and its ledger row in one statement; the balance after, or null when
-- nothing moved (the same kind and reference was posted before, or the balance is short).
-- Concurrent debits serialize on the account row and none can take the balance below zero.
CREATE OR REPLACE FUNCTION post_ledger_entry(p_account text, p_amount bigint, p_kind text,
                                  p_reference text, p_description text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  balance_after bigint;
BEGIN
  WITH moved AS (
    UPDATE accounts SET balance_cents = balance_cents + p_amount
    WHERE id = p_account AND balance_cents + p_amount >= 0
    AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE kind = p_kind
                    AND reference_id = p_reference)
    RETURNING balance_cents)
  INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                              description)
  SELECT p_account, p_amount, balance_cents, p_kind, p_reference, p_description FROM moved
  RETURNING balance_after_cents INTO balance_after;
  RETURN balance_after;
END $$;
