-- An event row and its outbox record (the record carries the event's `created`, the row the
-- request id).
CREATE OR REPLACE FUNCTION raise_event(p_id uuid, p_account text, p_type text, p_livemode boolean,
                            p_record jsonb, p_topic text,
                            p_request_id text DEFAULT
                              NULLIF(current_setting('smsgw.request_id', true), ''))
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  created text;
BEGIN
  INSERT INTO events (id, account_id, type, livemode, data)
  VALUES (p_id, p_account, p_type, p_livemode, p_record -> 'data')
  RETURNING iso_ts(events.created_at) INTO created;
  INSERT INTO outbox (topic, record_key, payload, request_id)
  VALUES (p_topic, p_account, jsonb_set(p_record, '{created}', to_jsonb(created))::text,
          p_request_id);
END $$;
