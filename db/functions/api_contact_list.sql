-- ContactList as the API renders it: its entries embedded, oldest first. PL/pgSQL, so that it
-- may be created before api_contact_list_entry (functions are applied in name order).
CREATE OR REPLACE FUNCTION api_contact_list(l contact_lists) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT jsonb_build_object(
      'id', l.id, 'name', l.name, 'description', l.description,
      'entry_count', coalesce(jsonb_array_length(x.entries), 0),
      'entries', coalesce(x.entries, '[]'::jsonb),
      'created_at', iso_ts(l.created_at), 'updated_at', iso_ts(l.updated_at))
    FROM (SELECT jsonb_agg(api_contact_list_entry(e) ORDER BY e.added_at, e.id) AS entries
          FROM contact_list_entries e WHERE e.list_id = l.id) x);
END $$;
