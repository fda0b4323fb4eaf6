-- ContactGroup as the API renders it: its members embedded, oldest membership first.
CREATE OR REPLACE FUNCTION api_contact_group(g contact_groups) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', g.id, 'name', g.name, 'description', g.description,
    'member_count', coalesce(jsonb_array_length(m.members), 0),
    'members', coalesce(m.members, '[]'::jsonb),
    'created_at', iso_ts(g.created_at), 'updated_at', iso_ts(g.updated_at))
  FROM (SELECT jsonb_agg(jsonb_build_object('id', c.id, 'phone_number', c.phone_number,
                                            'name', c.name)
                         ORDER BY gm.added_at, c.id) AS members
        FROM contact_group_members gm JOIN contacts c ON c.id = gm.contact_id
        WHERE gm.group_id = g.id) m
$$;
