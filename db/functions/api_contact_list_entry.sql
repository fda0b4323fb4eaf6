-- One entry of a ContactList as the API renders it: the number, contact or group it names, and
-- the contact's or group's name and number as they are now.
CREATE OR REPLACE FUNCTION api_contact_list_entry(e contact_list_entries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', e.id, 'phone_number', e.phone_number, 'contact_id', e.contact_id,
    'contact_group_id', e.contact_group_id,
    'contact_name', (SELECT c.name FROM contacts c WHERE c.id = e.contact_id),
    'contact_phone', (SELECT c.phone_number FROM contacts c WHERE c.id = e.contact_id),
    'group_name', (SELECT g.name FROM contact_groups g WHERE g.id = e.contact_group_id),
    'added_at', iso_ts(e.added_at))
$$;
