-- At the commit of a transaction that wrote outbox rows (the deferred constraint trigger of
-- migration 0030): the transaction's stamp, the order in which the relay publishes. Taken once
-- per transaction id, as late as PostgreSQL lets a transaction write: a transaction that waited
-- for another's lock, or saw its rows, stamps after it.
CREATE OR REPLACE FUNCTION stamp_outbox_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('smsgw.outbox_stamped', true) IS DISTINCT FROM NEW.txid::text THEN
    -- A logical restore can bring rows whose transaction id this cluster issues again before
    -- the relay re-keys them (db/outbox.h): the new stamp wins, so this transaction's rows are
    -- never left below the position (the restored ones may then be published twice).
    INSERT INTO outbox_commits (txid, stamp) VALUES (NEW.txid, nextval('outbox_commit_stamp'))
    ON CONFLICT (txid) DO UPDATE SET stamp = EXCLUDED.stamp;
    PERFORM set_config('smsgw.outbox_stamped', NEW.txid::text, true);
  END IF;
  RETURN NULL;
END $$;
