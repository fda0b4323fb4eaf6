-- Balance changes of one kind and amount, one ledger row per entry of p_entries
-- ([{reference, description}], in that order, each row with the balance after it), the balance
-- moved once, and what came of them: POSTED with the balance after the last; ALREADY_POSTED
-- when an entry's kind and reference was posted before (nothing moves twice; UNIQUE (kind,
-- reference_id) backs this up); INSUFFICIENT_BALANCE when the balance would go below zero
-- (nothing moves). Concurrent debits serialize on the account row. The one place these rules
-- live: db/ledger.cpp posts one entry through it, the functions that charge call it with theirs.
CREATE OR REPLACE FUNCTION post_ledger_entries(p_account text, p_amount bigint, p_kind text,
                                               p_entries jsonb)
RETURNS TABLE (outcome text, balance_after bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  entry_count int := jsonb_array_length(p_entries);
BEGIN
  -- One index scan for all the references, whatever the plan's guess of the entries' count.
  IF EXISTS (SELECT 1 FROM ledger_entries l WHERE l.kind = p_kind
             AND l.reference_id = ANY (ARRAY(SELECT e.entry ->> 'reference'
                                             FROM jsonb_array_elements(p_entries) AS e(entry))))
  THEN
    outcome := 'ALREADY_POSTED';
    RETURN NEXT;
    RETURN;
  END IF;
  UPDATE accounts a SET balance_cents = a.balance_cents + p_amount * entry_count
  WHERE a.id = p_account AND a.balance_cents + p_amount * entry_count >= 0
  RETURNING a.balance_cents INTO balance_after;
  IF balance_after IS NULL THEN
    outcome := 'INSUFFICIENT_BALANCE';
    RETURN NEXT;
    RETURN;
  END IF;
  INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                              description)
  SELECT p_account, p_amount, balance_after - p_amount * (entry_count - e.n), p_kind,
         e.entry ->> 'reference', e.entry ->> 'description'
  FROM jsonb_array_elements(p_entries) WITH ORDINALITY AS e(entry, n) ORDER BY e.n;
  outcome := 'POSTED';
  RETURN NEXT;
END $$;
