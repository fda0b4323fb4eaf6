-- Whether an allow/deny list reaches a number: as a number entry, as the number of a contact
-- entry, or as the number of a member of a group entry (groups are expanded now, at the send,
-- not when the entry was added). Each branch is one or two index probes: a contact's number is
-- unique within its account. PL/pgSQL so that its plan is kept for the connection's life: as a
-- SQL function called once per send it was planned on every call, which cost a fenced send
-- about 0.6 ms of CPU (ops/bench/broadcast-bench).
CREATE OR REPLACE FUNCTION list_holds(p_list text, p_account text, p_number text)
RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM contact_list_entries e
                 WHERE e.list_id = p_list AND e.phone_number = p_number)
      OR EXISTS (SELECT 1 FROM contacts c JOIN contact_list_entries e ON e.contact_id = c.id
                 WHERE c.account_id = p_account AND c.phone_number = p_number
                 AND e.list_id = p_list)
      OR EXISTS (SELECT 1 FROM contacts c
                 JOIN contact_group_members m ON m.contact_id = c.id
                 JOIN contact_list_entries e ON e.contact_group_id = m.group_id
                 WHERE c.account_id = p_account AND c.phone_number = p_number
                 AND e.list_id = p_list);
END $$;
