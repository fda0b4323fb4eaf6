-- A sending number's standing: null status when the account does not hold it; the latest
-- toll-free verification's status, looked for on toll-free numbers only.
CREATE OR REPLACE FUNCTION sending_number_standing(p_account text, p_number text)
RETURNS TABLE (status text, number_type text, verification text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT p.status, p.number_type,
         CASE WHEN p.number_type = 'toll_free' THEN
           (SELECT v.status FROM toll_free_verifications v WHERE v.phone_number_id = p.id
            AND v.cancelled_at IS NULL ORDER BY v.created_at DESC, v.id DESC LIMIT 1) END
  FROM phone_numbers p WHERE p.account_id = p_account AND p.phone_number = p_number
  AND p.status IN ('ACTIVE', 'SUSPENDED');
END $$;
