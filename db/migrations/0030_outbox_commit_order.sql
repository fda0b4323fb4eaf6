-- Reliability issue 51: the outbox follows commits. Until now the relay published in the order
-- transactions took their ids (migration 0018), and per-key order rested on a convention (take
-- the key's lock before the first write) that nothing checked: a transaction that took its id
-- first and then waited for another's lock committed second and left first.
--
-- Now each transaction that writes outbox rows takes a number from a sequence as it commits
-- (a deferred constraint trigger, db/functions/stamp_outbox_commit.sql), one row in
-- outbox_commits. A transaction waiting on another's lock reaches its commit only after the
-- other has committed, so its stamp is higher; a transaction that saw another's rows did so
-- after that one's stamp was taken. The relay publishes in (stamp, id) order up to a stamp no
-- transaction can still commit below (db/functions/outbox_commit_horizon.sql).
--
-- The position is a stamp, not a transaction id: the sequence travels with pg_dump, so a
-- logical restore no longer puts new rows below the position (migration 0029 re-based for
-- that); db/outbox.cpp still re-keys restored rows so that this cluster's transaction ids
-- never meet them.

-- Writers wait here while the rows already written get their stamps, in the order the relay
-- would have published them (transaction id, then id).
LOCK TABLE outbox IN EXCLUSIVE MODE;

CREATE SEQUENCE outbox_commit_stamp;
CREATE TABLE outbox_commits (
  txid  xid8 PRIMARY KEY,
  stamp bigint NOT NULL
);
CREATE INDEX outbox_commits_stamp ON outbox_commits (stamp);

INSERT INTO outbox_commits (txid, stamp)
SELECT txid, row_number() OVER (ORDER BY txid) FROM (SELECT DISTINCT txid FROM outbox) t;
SELECT setval('outbox_commit_stamp', greatest((SELECT count(*) FROM outbox_commits), 1),
              (SELECT count(*) FROM outbox_commits) > 0);

-- The position in stamps: the position's own transaction where its rows remain, else the last
-- transaction at or below it, all of whose rows were published.
ALTER TABLE outbox_relay_position ADD COLUMN stamp bigint;
UPDATE outbox_relay_position p SET
  stamp = coalesce((SELECT c.stamp FROM outbox_commits c WHERE c.txid = p.txid),
                   (SELECT max(c.stamp) FROM outbox_commits c WHERE c.txid < p.txid), 0),
  id = CASE WHEN EXISTS (SELECT 1 FROM outbox_commits c WHERE c.txid = p.txid) THEN p.id
            ELSE 9223372036854775807 END;
ALTER TABLE outbox_relay_position ALTER COLUMN stamp SET NOT NULL;

DROP VIEW outbox_pending;
ALTER TABLE outbox_relay_position DROP COLUMN txid, DROP COLUMN highest_published_id;

-- Its current text is db/functions/stamp_outbox_commit.sql; this first one stamps already, so
-- that no row written between this migration and the functions' re-apply goes unstamped.
CREATE FUNCTION stamp_outbox_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('smsgw.outbox_stamped', true) IS DISTINCT FROM NEW.txid::text THEN
    INSERT INTO outbox_commits (txid, stamp) VALUES (NEW.txid, nextval('outbox_commit_stamp'))
    ON CONFLICT (txid) DO UPDATE SET stamp = EXCLUDED.stamp;
    PERFORM set_config('smsgw.outbox_stamped', NEW.txid::text, true);
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER outbox_commit_stamp AFTER INSERT ON outbox
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stamp_outbox_commit();

-- The rows committed and not yet published, and those published (metrics, tests, the purge,
-- an operator's question). A row whose transaction has no stamp yet has not committed.
CREATE VIEW outbox_pending AS
SELECT o.*, c.stamp FROM outbox o JOIN outbox_commits c ON c.txid = o.txid
JOIN outbox_relay_position p ON (c.stamp, o.id) > (p.stamp, p.id);
CREATE VIEW outbox_published AS
SELECT o.*, c.stamp FROM outbox o JOIN outbox_commits c ON c.txid = o.txid
JOIN outbox_relay_position p ON (c.stamp, o.id) <= (p.stamp, p.id);
