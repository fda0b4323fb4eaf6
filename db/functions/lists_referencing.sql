-- The contact lists whose entries reach a contact (directly, or through a group it is in), a
-- group (directly), or a list (itself): what a change to it would change for the keys fenced by
-- those lists (spec Authentication 5 and 7).
CREATE OR REPLACE FUNCTION lists_referencing(p_kind text, p_id text)
RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT p_id WHERE p_kind = 'list'
  UNION
  SELECT e.list_id FROM contact_list_entries e
  WHERE (p_kind = 'group' AND e.contact_group_id = p_id)
     OR (p_kind = 'contact' AND (e.contact_id = p_id OR e.contact_group_id IN
          (SELECT m.group_id FROM contact_group_members m WHERE m.contact_id = p_id)))
$$;
