-- The consent check's one read: an opt-out in force (from this sending number, or any when
-- p_from is ''), the best consent in force (EXPRESS first, then the latest), and whether an
-- implied consent has lapsed without being marked so yet.
CREATE OR REPLACE FUNCTION consent_standing(p_account text, p_mode text, p_phone text, p_from text,
                                 p_now timestamptz)
RETURNS TABLE (opted_out int, consent_type text, lapsed int)
LANGUAGE plpgsql STABLE ROWS 1 AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = p_account AND o.mode = p_mode
                 AND o.phone_number = p_phone AND o.reinstated_at IS NULL
                 AND (p_from = '' OR o.from_number = p_from))::int,
         (SELECT c.consent_type FROM consents c WHERE c.account_id = p_account
          AND c.mode = p_mode AND c.phone_number = p_phone AND c.status = 'ACTIVE'
          AND NOT implied_consent_lapsed(c.consent_type, c.expires_at, p_now)
          ORDER BY c.consent_type = 'EXPRESS' DESC, c.granted_at DESC LIMIT 1),
         EXISTS (SELECT 1 FROM consents c WHERE c.account_id = p_account AND c.mode = p_mode
                 AND c.phone_number = p_phone AND c.status = 'ACTIVE'
                 AND implied_consent_lapsed(c.consent_type, c.expires_at, p_now))::int;
END $$;
