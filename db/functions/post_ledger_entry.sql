-- A balance change and its ledger row in one statement, and what came of it: POSTED with the
-- balance after; ALREADY_POSTED when the same kind and reference was posted before (nothing
-- moves twice; UNIQUE (kind, reference_id) backs this up); INSUFFICIENT_BALANCE when the
-- balance would go below zero. Concurrent debits serialize on the account row. The one place
-- these rules live: db/ledger.cpp and the functions that charge read this answer.
CREATE OR REPLACE FUNCTION post_ledger_entry(p_account text, p_amount bigint, p_kind text,
                                  p_reference text, p_description text)
RETURNS TABLE (outcome text, balance_after bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_entries l WHERE l.kind = p_kind
             AND l.reference_id = p_reference) THEN
    outcome := 'ALREADY_POSTED';
    RETURN NEXT;
    RETURN;
  END IF;
  WITH moved AS (
    UPDATE accounts a SET balance_cents = a.balance_cents + p_amount
    WHERE a.id = p_account AND a.balance_cents + p_amount >= 0
    RETURNING a.balance_cents)
  INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                              description)
  SELECT p_account, p_amount, moved.balance_cents, p_kind, p_reference, p_description FROM moved
  RETURNING balance_after_cents INTO balance_after;
  outcome := CASE WHEN balance_after IS NULL THEN 'INSUFFICIENT_BALANCE' ELSE 'POSTED' END;
  RETURN NEXT;
END $$;
