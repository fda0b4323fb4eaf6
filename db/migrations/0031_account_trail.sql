-- Reliability issue 51: a restore from a backup loses what happened after it, and
-- `smsgw-admin restore-audit` finds most of it in the events topic, which a restore does not roll
-- back. Some changes raise no event: a signup, an API key made or revoked, money other than a
-- message's (a top-up, a staff credit, a number's price or rent, a verification). A key revoked
-- after the backup would work again after the restore, unreported. Each of them now also leaves a
-- record on the `accounts.trail` topic, through the outbox in the same transaction, and the audit
-- sets those against the restored database.
--
-- Triggers, not calls in the services: keys are made and revoked on six paths (the API, the
-- dashboard's sessions, connected apps' grants in SQL, staff commands), and a path added later
-- is covered without anyone remembering. The record is written by db/functions/record_on_account_trail.sql.
CREATE FUNCTION record_on_account_trail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Replaced by db/functions/record_on_account_trail.sql later in the same migrate run; a change
  -- committed in between leaves no record, and the audit cannot report it.
  RETURN NULL;
END $$;

CREATE TRIGGER account_trail AFTER INSERT ON accounts
  FOR EACH ROW EXECUTE FUNCTION record_on_account_trail();
CREATE TRIGGER api_key_trail_made AFTER INSERT ON api_keys
  FOR EACH ROW EXECUTE FUNCTION record_on_account_trail();
CREATE TRIGGER api_key_trail_revoked AFTER UPDATE OF revoked_at ON api_keys
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION record_on_account_trail();
-- A message's money (its charge, refund, adjustment, an inbound text's charge) raises the
-- message's events already, and is most of the ledger.
CREATE TRIGGER ledger_trail AFTER INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.kind NOT IN ('sms_outbound', 'sms_inbound', 'sms_refund',
                                      'sms_adjustment'))
  EXECUTE FUNCTION record_on_account_trail();
