-- One record on the accounts.trail topic (migration 0031) for a change that raises no event:
--   {"v":1, "type":"account.created", "account_id", "at"}
--   {"v":1, "type":"api_key.created" | "api_key.revoked", "account_id", "key_id", "at"}
--   {"v":1, "type":"ledger_entry", "account_id", "kind", "reference_id", "amount_cents", "at"}
-- Keyed by the account, written through the outbox with the change.
CREATE OR REPLACE FUNCTION record_on_account_trail() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  record jsonb;
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    record := jsonb_build_object('type', 'account.created', 'account_id', NEW.id,
                                 'at', iso_ts(NEW.created_at));
  ELSIF TG_TABLE_NAME = 'api_keys' AND TG_OP = 'INSERT' THEN
    record := jsonb_build_object('type', 'api_key.created', 'account_id', NEW.account_id,
                                 'key_id', NEW.id, 'at', iso_ts(NEW.created_at));
  ELSIF TG_TABLE_NAME = 'api_keys' THEN
    record := jsonb_build_object('type', 'api_key.revoked', 'account_id', NEW.account_id,
                                 'key_id', NEW.id, 'at', iso_ts(NEW.revoked_at));
  ELSE
    record := jsonb_build_object('type', 'ledger_entry', 'account_id', NEW.account_id,
                                 'kind', NEW.kind, 'reference_id', NEW.reference_id,
                                 'amount_cents', NEW.amount_cents, 'at', iso_ts(NEW.created_at));
  END IF;
  INSERT INTO outbox (topic, record_key, payload, request_id)
  VALUES ('accounts.trail', record ->> 'account_id',
          (jsonb_build_object('v', 1) || record)::text,
          NULLIF(current_setting('smsgw.request_id', true), ''));
  RETURN NULL;
END $$;
