-- Contact as the API renders it.
CREATE OR REPLACE FUNCTION api_contact(c contacts) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', c.id, 'phone_number', c.phone_number, 'email', c.email, 'name', c.name,
    'notes', c.notes, 'created_at', iso_ts(c.created_at), 'updated_at', iso_ts(c.updated_at))
$$;
